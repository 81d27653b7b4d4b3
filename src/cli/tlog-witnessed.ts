import { anchorProblem, cosignedAt, parseNote, trustedCheckpoint, type AnchorTransaction, type Checkpoint, type WitnessKey } from '../modules/bidlog';
import type { Api } from './api';
import { Refused } from './resources';
import { attributes, attributesOrNone, extensionProblem, seenOf, type ServedCheckpoint } from './tlog-state';

export interface OutsideOptions {
  /** `require`: fail when no checkpoint is anchored; `auto` (default): check the anchor when there is one. */
  anchor?: 'require' | 'auto';
  /** Read anchors from this Horizon rather than from the service's own ledger. */
  horizon?: string;
  networkPassphrase: string;
  witnesses?: WitnessKey[];
  /** How many of `witnesses` must have co-signed; default all of them. */
  quorum?: number;
}

interface Found {
  problems: string[];
  notes: string[];
}

/**
 * The checkpoint found by `query` when the latest lacks what is asked (an anchor, co-signatures):
 * signed by the log and consistent with the latest, or why not. Answers null when none exists.
 * One newer than the latest (signed since) must extend it: a log showing this verifier a fork of
 * its own, beside the anchored or co-signed history, passed unless linked so (found by an outside test).
 */
async function earlier(api: Api, query: string, latest: Checkpoint, keys: readonly string[]): Promise<{ served: ServedCheckpoint; checkpoint: Checkpoint } | string | null> {
  const served = await attributesOrNone<ServedCheckpoint>(api, `/log/checkpoint?${query}`);
  if (!served) return null;
  const checkpoint = trustedCheckpoint(served.note, keys);
  if (typeof checkpoint === 'string') return checkpoint;
  const [older, newer] = checkpoint.size > latest.size ? [latest, checkpoint] : [checkpoint, latest];
  const problem = await extensionProblem(api, seenOf(older), newer);
  return problem ?? { served, checkpoint };
}

async function anchorTransaction(api: Api, hash: string, horizon: string | undefined): Promise<AnchorTransaction> {
  if (!horizon) return attributes<AnchorTransaction>(api, `/ledger/transactions/${hash}`);
  const url = `${horizon.replace(/\/$/, '')}/transactions/${hash}`;
  const res = await fetch(url);
  if (!res.ok) throw new Refused(`GET ${url}: ${res.status}`);
  return (await res.json()) as AnchorTransaction;
}

/** The anchor on the ledger of the latest checkpoint, or of the latest anchored one (which the latest must extend). */
export async function anchorChecked(api: Api, latest: { served: ServedCheckpoint; checkpoint: Checkpoint }, keys: readonly string[], options: OutsideOptions): Promise<Found> {
  let target: { served: ServedCheckpoint; checkpoint: Checkpoint } | string | null = latest.served.anchor ? latest : null;
  if (!target) {
    target = await earlier(api, 'anchored=true', latest.checkpoint, keys);
    if (typeof target === 'string') return { problems: [target], notes: [] };
    if (!target) return options.anchor === 'require' ? { problems: ['no checkpoint of the log is anchored on the ledger'], notes: [] } : { problems: [], notes: ['no checkpoint is anchored on the ledger yet'] };
  }
  const { served, checkpoint } = target;
  const anchor = served.anchor as NonNullable<ServedCheckpoint['anchor']>;
  const problem = anchorProblem(checkpoint, await anchorTransaction(api, anchor.transaction, options.horizon), keys, options.networkPassphrase);
  if (problem) return { problems: [problem], notes: [] };
  return { problems: [], notes: [`the checkpoint of size ${checkpoint.size} is anchored in ledger ${anchor.ledger} (transaction ${anchor.transaction})${linkNote(checkpoint, latest.checkpoint)}`] };
}

const linkNote = (c: Checkpoint, latest: Checkpoint) => (c.size < latest.size ? ', and the latest extends it' : c.size > latest.size ? ', and it extends the latest' : '');

const validCosignatures = (note: string, witnesses: readonly WitnessKey[]): string[] => {
  const parsed = parseNote(note);
  return typeof parsed === 'string' ? [] : witnesses.filter((w) => cosignedAt(parsed, w) !== null).map((w) => w.name);
};

/** A quorum of the given witnesses' co-signatures on the latest checkpoint, or on the latest so co-signed (which the latest must extend). */
export async function quorumChecked(api: Api, latest: { served: ServedCheckpoint; checkpoint: Checkpoint }, keys: readonly string[], witnesses: readonly WitnessKey[], quorum: number): Promise<Found> {
  let target: { served: ServedCheckpoint; checkpoint: Checkpoint } | string | null = latest;
  const own = validCosignatures(latest.served.note, witnesses);
  let signers = own;
  if (own.length < quorum) {
    target = await earlier(api, `cosignatures=${quorum}`, latest.checkpoint, keys);
    if (typeof target === 'string') return { problems: [target], notes: [] };
    signers = target ? validCosignatures(target.served.note, witnesses) : [];
    if (!target || signers.length < quorum) {
      return { problems: [`the checkpoint of size ${latest.checkpoint.size} carries ${own.length} valid co-signatures of the ${witnesses.length} witnesses given, fewer than the quorum of ${quorum}, and no earlier checkpoint it extends has more`], notes: [] };
    }
  }
  const { checkpoint } = target;
  return { problems: [], notes: [`the checkpoint of size ${checkpoint.size} is co-signed by ${signers.join(', ')} (quorum ${quorum})${linkNote(checkpoint, latest.checkpoint)}`] };
}
