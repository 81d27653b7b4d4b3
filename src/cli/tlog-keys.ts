import { keyHistoryProblem, parseNote, type KeyPeriod, type SeenCheckpoint } from '../modules/bidlog';
import type { Api } from './api';
import { data, type ServedCheckpoint } from './tlog-state';

export interface TrustedKeys {
  keys: string[];
  /** Each key's period as the log serves it (GET /log/keys). */
  periods: KeyPeriod[];
  notes: string[];
  problem: string | null;
}

interface ServedKey {
  public_key: string;
  from_size: number;
  to_size: number | null;
  leaf_index: number | null;
}

/** The log's key history as GET /log/keys serves it; a log that recorded none names the checkpoint's signer, its period open. */
export async function servedHistory(api: Api, served: ServedCheckpoint): Promise<KeyPeriod[]> {
  const history = (await data<{ attributes: ServedKey }[]>(api, '/log/keys')).map(({ attributes: k }) => ({ key: k.public_key, fromSize: k.from_size, toSize: k.to_size, leafIndex: k.leaf_index }));
  return history.length ? history : [{ key: served.signer, fromSize: 0, toSize: null, leafIndex: null }];
}

/** The checkpoint's origin, read before its signature is checked: it names the entry of the verifier's state. */
export function originOf(note: string): string | null {
  const parsed = parseNote(note);
  return typeof parsed === 'string' ? null : parsed.checkpoint.origin;
}

/**
 * The log keys to trust (docs/bid-log.md, "Verifying"): those given (--log-key); else those this
 * verifier trusted before (`seen.keys`, kept in its state), which the served history must still
 * name, alone; else, on first use, the served history, which is kept from then on.
 */
export async function trustedLogKeys(api: Api, served: ServedCheckpoint, given: readonly string[] | undefined, seen: SeenCheckpoint | undefined, kept: boolean): Promise<TrustedKeys> {
  const periods = await servedHistory(api, served);
  if (given?.length) return { keys: [...given], periods, notes: [], problem: null };
  const history = periods.map((p) => p.key);
  if (seen?.keys?.length) return { keys: seen.keys, periods, notes: [], problem: keyHistoryProblem(seen.keys, history) };
  const note = kept
    ? `(trusting on first use the log keys ${history.join(', ')} from GET /log/keys, kept in the state file: a later change of them fails until confirmed with --log-key)`
    : `(the log keys ${history.join(', ')} were taken from the log itself: pass --log-key to trust a key you hold)`;
  return { keys: history, periods, notes: [note], problem: null };
}
