import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { consistencyProblem, type Checkpoint, type SeenCheckpoint } from '../modules/bidlog';
import type { Api } from './api';
import { Refused } from './resources';

/** The checkpoint each log was last seen at, by the log's URL, in a small JSON file kept between runs. */
export type SeenState = Record<string, SeenCheckpoint>;

/**
 * What was seen before of the log at `base`. Kept by the URL the user names, never by the name the
 * log gives itself: a log that renamed itself was a new log to a verifier, a witness and a monitor
 * alike, and its rewritten history passed all three (found by an outside test). A state written by
 * an earlier release keyed its logs by origin: read so when nothing is kept by URL yet.
 */
export const seenAt = (state: SeenState, base: string, origin: string | null): SeenCheckpoint | undefined =>
  state[base] ?? (origin === null ? undefined : state[origin]);

/** Keeps `seen` for the log at `base`, in place of what an earlier release kept by its origin. */
export function keepSeen(state: SeenState, base: string, seen: SeenCheckpoint): void {
  delete state[seen.origin];
  state[base] = seen;
}

/** The state kept before; a file that is no JSON is refused in one line (its checkpoints cannot be trusted, nor silently forgotten). */
export function readState(file: string): SeenState {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SeenState;
  } catch {
    throw new Refused(`${file} holds no state this verifier wrote: restore it, or remove it to start over (and trust the log's keys anew)`);
  }
}

/** Kept for the next run; its folder is made when missing (an auditor's checkout has no DATA_DIR). */
export function writeState(file: string, state: SeenState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
}

/** A checkpoint resource's attributes as GET /log/checkpoint serves them. */
export interface ServedCheckpoint {
  size: number;
  root_hash: string;
  note: string;
  signer: string;
  created_at: string;
  anchor: { transaction: string; ledger: number; account: string } | null;
}

export async function data<T>(api: Api, target: string): Promise<T> {
  const res = await api.json('GET', target);
  if (res.status !== 200) throw new Refused(`GET ${target}: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { data: T }).data;
}

export const attributes = async <T>(api: Api, target: string) => (await data<{ attributes: T }>(api, target)).attributes;

/** The resource's attributes, or null when the service answers 404. */
export async function attributesOrNone<T>(api: Api, target: string): Promise<T | null> {
  const res = await api.json('GET', target);
  if (res.status === 404) return null;
  if (res.status !== 200) throw new Refused(`GET ${target}: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { data: { attributes: T } }).data.attributes;
}

const consistencyHashes = async (api: Api, from: number, to: number): Promise<string[]> =>
  from === to || from === 0 ? [] : (await attributes<{ hashes: string[] }>(api, `/log/proof/consistency?from=${from}&to=${to}`)).hashes;

/** A checkpoint as a verifier, a witness and a monitor keep it. */
export const seenOf = (c: Checkpoint): SeenCheckpoint => ({ origin: c.origin, size: c.size, root: c.root.toString('base64') });

/** Whether `now` extends `seen`: the problem, or null; checked with the log's proof when one can link them (same log, not smaller). */
export const extensionProblem = async (api: Api, seen: SeenCheckpoint, now: Checkpoint): Promise<string | null> =>
  consistencyProblem(seen, now, seen.origin === now.origin && seen.size <= now.size ? await consistencyHashes(api, seen.size, now.size) : null);
