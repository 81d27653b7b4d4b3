import { leafHash, verifyConsistency, verifyInclusion } from './tlog.merkle';
import { noteSignedBy, parseNote, type Checkpoint } from './tlog.note';
import { parseKeyLeaf } from './tlog.keyleaf';
import { parseLeaf, type BidLeaf, type OutcomeLeaf } from './tlog.leaves';
import { receiptSignedBy, type AnyReceipt } from './tlog.receipt';
import type { ServedLot } from './bidlog.verify';

/** A leaf as GET /log/entries serves it. */
export interface ServedLeaf {
  leaf_index: number;
  leaf_hash: string;
  data: string;
}

/** The checkpoint a verifier saw last, kept between its runs to catch a rewritten history. */
export interface SeenCheckpoint {
  origin: string;
  size: number;
  /** base64 */
  root: string;
  /** The log keys this verifier trusts for the origin: given once with --log-key, or trusted on first use. */
  keys?: string[];
  /** The keys this verifier saw sign the origin's checkpoints, in the order it first saw each: all but the last were replaced. */
  signers?: string[];
}

/**
 * A checkpoint note signed by one of `keys` (the log's key history: any key it ever used), with
 * `origin` when given; the checkpoint, or why it is not trusted.
 */
export function trustedCheckpoint(note: string, keys: readonly string[], origin?: string): Checkpoint | string {
  const parsed = parseNote(note);
  if (typeof parsed === 'string') return parsed;
  const { checkpoint } = parsed;
  if (origin !== undefined && checkpoint.origin !== origin) return `the checkpoint is of log ${checkpoint.origin}, not ${origin}`;
  if (!keys.some((k) => noteSignedBy(parsed, checkpoint.origin, k))) return `the checkpoint of size ${checkpoint.size} is not signed by the log key ${keys.join(' or ')}`;
  return checkpoint;
}

/** The keys of `keys` that signed the checkpoint note. */
export function checkpointSigners(note: string, keys: readonly string[]): string[] {
  const parsed = parseNote(note);
  return typeof parsed === 'string' ? [] : keys.filter((k) => noteSignedBy(parsed, parsed.checkpoint.origin, k));
}

/**
 * A checkpoint larger than the last one seen, signed only by keys this verifier saw replaced (one
 * it saw sign before a later key did): the service signs nothing with a replaced key, but whoever
 * still holds its seed could extend the log so. The problem, or null.
 */
export function replacedKeyProblem(seen: SeenCheckpoint | undefined, now: Checkpoint, signers: readonly string[]): string | null {
  const order = seen?.signers ?? [];
  const replaced = order.slice(0, -1);
  if (!seen || now.size <= seen.size || !signers.length || !signers.every((k) => replaced.includes(k))) return null;
  return `the checkpoint of size ${now.size} is signed only by ${signers.join(', ')}, replaced before ${order.at(-1)} signed the checkpoint of size ${seen.size} seen here: a replaced key signs nothing later`;
}

/** `seen.signers` once a checkpoint signed by `signers` is taken. */
export function signersAfter(seen: SeenCheckpoint | undefined, signers: readonly string[]): string[] {
  const order = seen?.signers ?? [];
  const current = signers.find((k) => !order.slice(0, -1).includes(k));
  return current === undefined || order.includes(current) ? [...order] : [...order, current];
}

/** A key's period as GET /log/keys serves it (docs/bid-log.md, "A key's period"). */
export interface KeyPeriod {
  key: string;
  fromSize: number;
  /** Null for the key that signs now. */
  toSize: number | null;
  /** The leaf that logged the rotation to this key, null when none did. */
  leafIndex: number | null;
}

/**
 * A checkpoint signed only by keys whose period ended below its size: whoever still holds a
 * replaced seed could sign it, the log could not. The problem, or null.
 */
export function checkpointPeriodProblem(periods: readonly KeyPeriod[], now: Checkpoint, signers: readonly string[]): string | null {
  const ends = signers.map((k) => periods.find((p) => p.key === k)?.toSize ?? null);
  if (!signers.length || ends.some((end) => end === null || now.size <= end)) return null;
  return `the checkpoint of size ${now.size} is signed only by ${signers.join(', ')}, whose period ended at tree size ${Math.max(...(ends as number[]))} (GET /log/keys): a replaced key signs nothing later`;
}

/** Leaves of a receipt outside the period of the key that signed it: the problem, or null. */
export function receiptPeriodProblem(periods: readonly KeyPeriod[], signer: string, indexes: readonly number[]): string | null {
  const period = periods.find((p) => p.key === signer);
  if (!period) return null;
  const outside = indexes.filter((i) => i < period.fromSize || (period.toSize !== null && i >= period.toSize));
  if (!outside.length) return null;
  const covered = period.toSize === null ? `from leaf ${period.fromSize} on` : `leaves ${period.fromSize} to ${period.toSize - 1}`;
  return `the receipt is signed by ${signer}, whose period covers ${covered}, for leaf ${outside.join(', ')}: a replaced key signs nothing later`;
}

/**
 * Keys given to the verifier that the served history does not name: announced and not rotated to
 * yet, or a fork signed with a replaced seed that omits the rotation. Without state the two look
 * alike, so this is said, not failed: witnesses, anchors and state tell them apart. The note, or null.
 */
export function unnamedKeysNote(given: readonly string[], periods: readonly KeyPeriod[]): string | null {
  const unnamed = given.filter((k) => !periods.some((p) => p.key === k));
  if (!unnamed.length) return null;
  return `(the log's key history does not name ${unnamed.join(', ')}, given with --log-key: the log has not rotated to it, or serves a fork that omits the rotation, which only witnesses, anchors or --state catch)`;
}

/**
 * The rotation a key's period begins with, against the leaf that logged it (`leaf`, null when the
 * log serves none at that index): the next key and the one it replaced. The problem, or null.
 */
export function rotationLeafProblem(period: KeyPeriod, replaced: string | undefined, leaf: ServedLeaf | null): string | null {
  const logged = leaf && !servedLeafProblem(leaf) ? parseKeyLeaf(leaf.data) : null;
  if (logged && logged.key === period.key && logged.replaces === replaced) return null;
  return `the log's key history says ${period.key} replaced ${replaced ?? 'no key'} at leaf ${period.leafIndex}, but the log's leaf ${period.leafIndex} logs no such rotation`;
}

/**
 * The log's key history as served now (GET /log/keys) against the keys this verifier trusted
 * before: the operator holds the database, so a key it lists proves nothing by itself, and a
 * change of keys is taken only from the verifier (--log-key). The problem, or null.
 */
export function keyHistoryProblem(trusted: readonly string[], served: readonly string[]): string | null {
  const dropped = trusted.filter((k) => !served.includes(k));
  const added = served.filter((k) => !trusted.includes(k));
  if (dropped.length) {
    return `the log's key history no longer names ${dropped.join(', ')}, trusted here before, but ${added.join(', ') || 'no other key'}: its key was replaced, not rotated; pass --log-key to trust another key`;
  }
  if (added.length) {
    return `the log's key history names ${added.join(', ')}, which this verifier never trusted: a rotation only the log announces proves nothing; confirm it with the operator, then pass --log-key once for every key to trust`;
  }
  return null;
}

/** Consistency of the checkpoint now served with the one seen before: the problem, or null. */
export function consistencyProblem(seen: SeenCheckpoint, now: Checkpoint, proof: string[] | null): string | null {
  // Renamed, a log would be a new one to every verifier that keeps its state by name: a rewritten history passed so.
  if (now.origin !== seen.origin) return `the log now names itself ${now.origin}, not ${seen.origin} as in the checkpoint of size ${seen.size} seen before: a checkpoint of another log, or its history rewritten under a new name`;
  if (now.size < seen.size) return `the log shrank: checkpoint of size ${now.size} after one of size ${seen.size}`;
  const hashes = (proof ?? []).map((h) => Buffer.from(h, 'base64'));
  if (!verifyConsistency(seen.size, now.size, Buffer.from(seen.root, 'base64'), now.root, hashes)) {
    return now.size === seen.size
      ? `the log rewrote its history: two checkpoints of size ${now.size} with different roots`
      : `the log rewrote its history: the checkpoint of size ${now.size} is not consistent with the one of size ${seen.size} seen before`;
  }
  return null;
}

/** Whether a served leaf hashes to its hash and the inclusion proof puts it in the checkpoint: the problem, or null. */
export function inclusionProblem(index: number, hash: Buffer, proof: string[], checkpoint: Checkpoint): string | null {
  return verifyInclusion(index, checkpoint.size, hash, proof.map((h) => Buffer.from(h, 'base64')), checkpoint.root)
    ? null
    : `leaf ${index} is not in the checkpoint of size ${checkpoint.size} as its hash says`;
}

export const servedLeafProblem = (l: ServedLeaf): string | null =>
  leafHash(Buffer.from(l.data, 'utf8')).toString('base64') === l.leaf_hash ? null : `leaf ${l.leaf_index}'s text does not hash to its hash`;

/** The key of `keys` that signed the receipt, or null. */
export const receiptSigner = (r: AnyReceipt, keys: readonly string[]): string | null => keys.find((k) => receiptSignedBy(r, k)) ?? null;

/** The receipt's signature by one of the log's keys: the problem, or null. */
export const receiptProblem = (r: AnyReceipt, keys: readonly string[]): string | null =>
  keys.some((k) => receiptSignedBy(r, k)) ? null : `the receipt is not signed by the log key ${keys.join(' or ')}`;

export interface LotLeaves {
  problems: string[];
  bids: BidLeaf[];
  outcomes: OutcomeLeaf[];
  /** The indexes of the leaves the log's creation backfilled. */
  backfilled: number[];
}

/**
 * A lot's leaves against the lot as served: the bids' amounts increasing, the lot's highest bid
 * the last bid's, and its state and winner those of its last outcome (none while open).
 */
export function checkLotLeaves(leaves: readonly ServedLeaf[], lot: ServedLot): LotLeaves {
  const problems: string[] = [];
  const bids: BidLeaf[] = [];
  const outcomes: OutcomeLeaf[] = [];
  const backfilled: number[] = [];
  for (const l of leaves) {
    const fields = parseLeaf(l.data);
    if (!fields || fields.lot_id !== lot.id) {
      problems.push(`leaf ${l.leaf_index} is no entry of lot ${lot.id}`);
      continue;
    }
    if (fields.backfilled_at) backfilled.push(l.leaf_index);
    if (fields.kind === 'bid') {
      const last = bids[bids.length - 1];
      if (last && !(Number(fields.amount) > Number(last.amount))) problems.push(`leaf ${l.leaf_index}: amount ${fields.amount} does not exceed the previous bid's ${last.amount}`);
      bids.push(fields);
    } else {
      outcomes.push(fields);
    }
  }
  const highest = bids[bids.length - 1]?.amount ?? '0.00';
  if (lot.highest_bid !== highest) problems.push(`the lot's highest_bid ${lot.highest_bid} is not the log's ${highest}`);
  const outcome = outcomes[outcomes.length - 1];
  if (outcome) {
    if (`lot_state_${outcome.lot_state}` !== lot.lot_state_str) problems.push(`the lot is ${lot.lot_state_str}, the log's last outcome says ${outcome.lot_state}`);
    if ((outcome.winner_id ?? '') !== lot.winner_id) problems.push(`the lot's winner ${lot.winner_id || 'none'} is not the log's ${outcome.winner_id ?? 'none'}`);
    if (outcome.bids !== bids.length) problems.push(`the log's outcome counts ${outcome.bids} bids, the log holds ${bids.length}`);
  } else if (lot.lot_state_str !== 'lot_state_pending') {
    problems.push('the lot is closed but the log holds no outcome of it');
  }
  return { problems, bids, outcomes, backfilled };
}
