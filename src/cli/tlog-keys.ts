import { keyHistoryProblem, parseNote, type SeenCheckpoint } from '../modules/bidlog';
import type { Api } from './api';
import { data, type ServedCheckpoint } from './tlog-state';

export interface TrustedKeys {
  keys: string[];
  notes: string[];
  problem: string | null;
}

/** The log's key history as GET /log/keys serves it; a log that recorded none names the checkpoint's signer. */
async function servedHistory(api: Api, served: ServedCheckpoint): Promise<string[]> {
  const history = (await data<{ attributes: { public_key: string } }[]>(api, '/log/keys')).map((k) => k.attributes.public_key);
  return history.length ? history : [served.signer];
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
  if (given?.length) return { keys: [...given], notes: [], problem: null };
  const history = await servedHistory(api, served);
  if (seen?.keys?.length) return { keys: seen.keys, notes: [], problem: keyHistoryProblem(seen.keys, history) };
  const note = kept
    ? `(trusting on first use the log keys ${history.join(', ')} from GET /log/keys, kept in the state file: a later change of them fails until confirmed with --log-key)`
    : `(the log keys ${history.join(', ')} were taken from the log itself: pass --log-key to trust a key you hold)`;
  return { keys: history, notes: [note], problem: null };
}
