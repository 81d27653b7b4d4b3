import type { EntityManager } from '@mikro-orm/postgresql';
import { inTransaction } from '../../core/transaction';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { keyLeafOf } from './tlog.keyleaf';
import { endKeyPeriod } from './tlog.signing';
import { sequence } from './tlog.store';

export interface LogKey {
  publicKey: string;
  since: Date;
  /** When the next key took over; null for the key that signs now. */
  until: Date | null;
  /** The first leaf the key may receipt: 0 for the first key, else its rotation's leaf. */
  fromSize: number;
  /** The largest tree it may sign a checkpoint of, and the end of the leaves it may receipt; null for the key that signs now. */
  toSize: number | null;
  /** The leaf that logged the rotation to this key; null for the first key and for rotations made before rotations were logged. */
  leafIndex: number | null;
}

interface KeyRow {
  public_key: string;
  since: Date;
  until: Date | null;
  from_size: string;
  to_size: string | null;
  leaf_index: string | null;
}

/**
 * How long a rotation waits for the appends under way (and the tree's row) before it gives up: far
 * longer than an append takes, and within the 5 s the service waits for any answer of the
 * database by default (DB_ANSWER_TIMEOUT), which would otherwise end the wait as a dead connection.
 */
const ROTATION_WAIT_SECONDS = 3;

/** PostgreSQL's SQLSTATE of a lock not had within `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';

/** A start that gave up waiting to record the log's key: nothing of it was kept, and the log's key is unchanged. */
export class KeyRecordingBlocked extends Error {}

const rotationBlocked = (waitSeconds: number) =>
  new KeyRecordingBlocked(
    `the rotation of the bid log's key waited ${waitSeconds} s for the appends under way to end, in vain (a transaction holds them: see pg_stat_activity); nothing was changed, the log's key is still the one it replaces: start this instance again`,
  );

const keysHeld = (waitSeconds: number) =>
  new KeyRecordingBlocked(
    `this start waited ${waitSeconds} s for another one recording the bid log's key, in vain (a transaction holds the table tlog_keys: see pg_stat_activity); nothing was changed: start this instance again`,
  );

const lockNotHad = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === LOCK_NOT_AVAILABLE;

/** The leaves numbered so far. */
type SizeRow = { size: string };

const numberOrNull = (v: string | null): number | null => (v === null ? null : Number(v));

/** Every key the log has signed with, oldest first. */
export async function logKeyHistory(em: EntityManager): Promise<LogKey[]> {
  const rows = await rowsOf<KeyRow>(em, sql`select public_key, since, until, from_size::text, to_size::text, leaf_index::text from tlog_keys order by since, public_key`);
  return rows.map((r) => ({
    publicKey: r.public_key,
    since: new Date(r.since),
    until: r.until === null ? null : new Date(r.until),
    fromSize: Number(r.from_size),
    toSize: numberOrNull(r.to_size),
    leafIndex: numberOrNull(r.leaf_index),
  }));
}

/**
 * Closes the current key's period and opens `publicKey`'s at the tree's size, appending the
 * rotation's leaf there. Under the counter row no leaf is numbered meanwhile (those committed
 * before are numbered first: the old key may have receipted them), and under the tree row no
 * checkpoint is signed (a checkpoint asks `tlog_signs` once it holds that row): every checkpoint
 * and numbered leaf of the old key ends below the rotation's leaf.
 */
async function rotate(tx: EntityManager, publicKey: string, replaces: string, waitSeconds: number): Promise<void> {
  // Waiting for the period's lock, the rotation holds back every append queued behind it, on every
  // instance: a transaction stuck in an append (a commit without answer) must not stall the bids
  // for as long as it lasts.
  await rowsOf(tx, sql`select set_config('lock_timeout', ${`${waitSeconds * 1000}ms`}, true)`);
  // After the appends under way, which the sequencer then numbers before the key's leaf.
  await rowsOf(tx, endKeyPeriod);
  await sequence(tx, []);
  await rowsOf(tx, sql`select from tlog_tree for update`);
  const [{ size }] = await rowsOf<SizeRow>(tx, sql`select size::text from tlog_size`);
  const leaf = keyLeafOf(publicKey, replaces, new Date());
  await rowsOf(tx, sql`insert into tlog_leaves (idx, lot_id, kind, data, hash) values (${size}, null, 'key', ${leaf.data}, decode(${leaf.hash.toString('hex')}, 'hex'))`);
  await rowsOf(tx, sql`update tlog_size set size = size + 1`);
  await rowsOf(tx, sql`update tlog_keys set until = now(), to_size = ${size} where until is null`);
  await rowsOf(tx, sql`insert into tlog_keys (public_key, from_size, leaf_index) values (${publicKey}, ${size}, ${size})`);
}

/**
 * The key the log signs with now, as the database records it: `publicKey` on the first start; on a
 * start that names the current key as the one it `replaces`, `publicKey` from now on (a key that
 * signed before never comes back). Answers the current key after it, which the caller compares.
 */
export async function recordLogKey(em: EntityManager, publicKey: string, replaces: string | null, waitSeconds = ROTATION_WAIT_SECONDS): Promise<string> {
  return inTransaction({ em }, async (tx) => {
    // Instances starting together take turns: the first records, the others read. A turn lasts
    // milliseconds, or a rotation's wait at most: a longer one is a start stuck with the table
    // (a process stopped mid-start), which must not hold every later start with it.
    const turn = waitSeconds + 1;
    await rowsOf(tx, sql`select set_config('lock_timeout', ${`${turn * 1000}ms`}, true)`);
    await rowsOf(tx, sql`lock table tlog_keys in share row exclusive mode`).catch((err: unknown) => {
      throw lockNotHad(err) ? keysHeld(turn) : err;
    });
    const keys = await logKeyHistory(tx);
    const current = keys.find((k) => k.until === null)?.publicKey ?? null;
    if (current === null) {
      await rowsOf(tx, sql`insert into tlog_keys (public_key) values (${publicKey})`);
      return publicKey;
    }
    if (current !== publicKey && replaces === current && !keys.some((k) => k.publicKey === publicKey)) {
      await rotate(tx, publicKey, current, waitSeconds).catch((err: unknown) => {
        throw lockNotHad(err) ? rotationBlocked(waitSeconds) : err;
      });
      return publicKey;
    }
    return current;
  });
}
