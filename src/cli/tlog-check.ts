import {
  checkLotLeaves,
  checkpointPeriodProblem,
  checkpointSigners,
  inclusionProblem,
  isHashReceipt,
  receiptPeriodProblem,
  receiptProblem,
  receiptSigner,
  replacedKeyProblem,
  rotationLeafProblem,
  signersAfter,
  servedLeafProblem,
  trustedCheckpoint,
  unnamedKeysNote,
  type AnyReceipt,
  type KeyPeriod,
  type ServedLeaf,
  type ServedLot,
} from '../modules/bidlog';
import { Api } from './api';
import { Refused } from './resources';
import { originOf, trustedLogKeys } from './tlog-keys';
import { attributes, data, extensionProblem, keepSeen, readState, seenAt, seenOf, writeState, type ServedCheckpoint } from './tlog-state';
import { anchorChecked, quorumChecked, type OutsideOptions } from './tlog-witnessed';

export interface LogCheckOptions {
  /** The log keys to trust (its key history); else those trusted before (kept in `statePath`), else the history the log serves, reported. */
  logKeys?: string[];
  /** The small file where the last checkpoint seen is kept between runs; none: no consistency check. */
  statePath?: string;
  receipt?: AnyReceipt;
  /** The digest of the request the receipt answered (docs/bid-log.md, "An entry"): one of the receipt's bids must cite it. */
  requestDigest?: string;
  lotId?: string;
  /** How long after a receipt its leaves must be in a checkpoint signed later. */
  graceSeconds?: number;
  /** What vouches for the checkpoint outside the operator's reach: its anchor on the ledger, a quorum of witnesses. */
  outside?: OutsideOptions;
}

export interface LogCheck {
  ok: boolean;
  problems: string[];
  notes: string[];
  /** With a lot: how many of its bids the log holds, and how many of them were backfilled. */
  lot?: { bids: number; backfilledBids: number };
}

const DEFAULT_GRACE_SECONDS = 60;

/**
 * Checks the service's transparency log from outside (docs/bid-log.md): the latest checkpoint's
 * signature, its consistency with the checkpoint this verifier saw before (kept in `statePath`),
 * a receipt's leaves in it, and a lot's leaves in it and against the lot.
 */
export async function checkLog(base: string, options: LogCheckOptions): Promise<LogCheck> {
  const api = new Api(base, null);
  const problems: string[] = [];
  const notes: string[] = [];
  const served = await attributes<ServedCheckpoint>(api, '/log/checkpoint');
  const state = options.statePath ? readState(options.statePath) : {};
  const origin = originOf(served.note);
  const seen = seenAt(state, base, origin);
  const trusted = await trustedLogKeys(api, served, options.logKeys, seen, options.statePath !== undefined);
  const { keys } = trusted;
  notes.push(...trusted.notes);
  if (trusted.problem) return { ok: false, problems: [trusted.problem], notes };
  const checkpoint = trustedCheckpoint(served.note, keys);
  if (typeof checkpoint === 'string') return { ok: false, problems: [checkpoint], notes };
  notes.push(`checkpoint ${checkpoint.origin} size ${checkpoint.size} root ${checkpoint.root.toString('base64')}`);

  const signers = checkpointSigners(served.note, keys);
  const unnamed = unnamedKeysNote(options.logKeys ?? [], trusted.periods);
  if (unnamed) notes.push(unnamed);
  const period = checkpointPeriodProblem(trusted.periods, checkpoint, signers);
  if (options.statePath) {
    // A checkpoint its key may no longer sign is taken no further: its consistency proves nothing.
    const problem = replacedKeyProblem(seen, checkpoint, signers) ?? period ?? (seen ? await extensionProblem(api, seen, checkpoint) : null);
    if (problem) problems.push(problem);
    else {
      if (seen) notes.push(`consistent with the checkpoint of size ${seen.size} seen before`);
      keepSeen(state, base, { ...seenOf(checkpoint), keys, signers: signersAfter(seen, signers) });
      writeState(options.statePath, state);
    }
  } else if (period) {
    problems.push(period);
  }

  if (options.outside) {
    const latest = { served, checkpoint };
    const { witnesses = [], quorum = witnesses.length } = options.outside;
    const checks = [await anchorChecked(api, latest, keys, options.outside), ...(quorum > 0 ? [await quorumChecked(api, latest, keys, witnesses, quorum)] : [])];
    for (const found of checks) {
      problems.push(...found.problems);
      notes.push(...found.notes);
    }
  }

  /** A problem of the leaf's inclusion; `damaged` when the service cannot prove it for want of what its database lost. */
  const included = async (index: number, hash: Buffer): Promise<{ problem: string; damaged: boolean } | null> => {
    const target = `/log/proof/inclusion?leaf_index=${index}&tree_size=${checkpoint.size}`;
    const res = await api.json('GET', target);
    const error = (res.body as { errors?: { code?: string; detail?: string }[] } | null)?.errors?.[0];
    // The service names what its database lost: that is the finding, not a failure of the check.
    if (error?.code === 'log_damaged') return { problem: `leaf ${index} cannot be proven in the checkpoint of size ${checkpoint.size}: ${error.detail}`, damaged: true };
    if (res.status !== 200) throw new Refused(`GET ${target}: ${res.status} ${JSON.stringify(res.body)}`);
    const problem = inclusionProblem(index, hash, (res.body as { data: { attributes: { hashes: string[] } } }).data.attributes.hashes, checkpoint);
    return problem ? { problem, damaged: false } : null;
  };

  // The rotations the checkpoint holds: the served periods are the log's word until its tree says so.
  for (const [i, p] of trusted.periods.entries()) {
    if (p.leafIndex === null || p.leafIndex >= checkpoint.size) continue;
    const problem = await rotationChecked(api, p, trusted.periods[i - 1]?.key, (index, hash) => included(index, hash));
    if (problem) problems.push(problem);
  }

  if (options.receipt) {
    const r = options.receipt;
    const signed = receiptProblem(r, keys);
    if (signed) problems.push(signed);
    if (r.origin !== checkpoint.origin) problems.push(`the receipt was signed for the log ${r.origin}, the checkpoint is the log ${checkpoint.origin}'s: a receipt of another log, or a log that renamed itself`);
    // By this verifier's clock: the served checkpoint's created_at is signed by nothing, and the
    // operator who withholds a bid would backdate it, or stop signing checkpoints at all.
    const late = Date.now() - Date.parse(r.timestamp) > (options.graceSeconds ?? DEFAULT_GRACE_SECONDS) * 1000;
    // A receipt of version 2 names its leaves by hash: the log finds each one's index and proof (get-proof-by-hash).
    const entries = isHashReceipt(r) ? await Promise.all(r.entries.map((e) => foundByHash(api, e.leaf_hash, checkpoint.size))) : r.entries;
    for (const e of entries) {
      if (e.leaf_index === null) {
        if (late) problems.push(`the receipt's leaf ${e.leaf_hash} is missing from the checkpoint of size ${checkpoint.size}, served past the receipt's promise`);
        else notes.push(`the receipt's leaf ${e.leaf_hash} is not in a checkpoint yet`);
        continue;
      }
      if (e.leaf_index >= checkpoint.size) {
        if (late) problems.push(`the receipt's leaf ${e.leaf_index} is missing from the checkpoint of size ${checkpoint.size}, served past the receipt's promise`);
        else notes.push(`the receipt's leaf ${e.leaf_index} is not in a checkpoint yet`);
        continue;
      }
      const inclusion = await included(e.leaf_index, Buffer.from(e.leaf_hash, 'base64'));
      const problem = inclusion?.problem ?? (await servedProblem(api, e.leaf_index, e.leaf_hash));
      if (inclusion?.damaged) problems.push(`the receipt's ${inclusion.problem}`);
      else if (problem) problems.push(`the receipt's ${problem}: the log dropped or changed the bid`);
      else notes.push(`the receipt's leaf ${e.leaf_index} is in the checkpoint`);
    }
    const signer = receiptSigner(r, keys);
    const outside = signer === null ? null : receiptPeriodProblem(trusted.periods, signer, entries.flatMap((e) => (e.leaf_index === null ? [] : [e.leaf_index])));
    if (outside) problems.push(outside);
    if (options.requestDigest !== undefined) {
      const found = await receiptDigestChecked(api, entries, options.requestDigest.toLowerCase());
      if (found.problem) problems.push(found.problem);
      if (found.note) notes.push(found.note);
    }
  }

  if (options.lotId) {
    const leaves = await lotLeaves(api, options.lotId, checkpoint.size);
    let pending = 0;
    for (const l of leaves) {
      if (l.leaf_index >= checkpoint.size) pending += 1;
      const problem = servedLeafProblem(l) ?? (l.leaf_index < checkpoint.size ? (await included(l.leaf_index, Buffer.from(l.leaf_hash, 'base64')))?.problem : null);
      if (problem) problems.push(problem);
    }
    if (pending) notes.push(`${pending} of the lot's leaves are not in a checkpoint yet`);
    return { ...(await lotChecked(api, options.lotId, leaves, problems, notes)), notes };
  }
  return { ok: problems.length === 0, problems, notes };
}

/** The leaf that logged the rotation to `period.key`, served and in the checkpoint: the problem, or null. */
async function rotationChecked(api: Api, period: KeyPeriod, replaced: string | undefined, included: (index: number, hash: Buffer) => Promise<{ problem: string } | null>): Promise<string | null> {
  const index = period.leafIndex as number;
  const [entry] = (await data<{ attributes: ServedLeaf }[]>(api, `/log/entries?from=${index}`)).map((d) => d.attributes);
  const leaf = entry?.leaf_index === index ? entry : null;
  return rotationLeafProblem(period, replaced, leaf) ?? (await included(index, Buffer.from((leaf as ServedLeaf).leaf_hash, 'base64')))?.problem ?? null;
}

/**
 * Whether the log still serves the leaf its tree commits to: its hashes prove inclusion whatever
 * became of the entry's text, which the operator may delete from the database alone.
 */
async function servedProblem(api: Api, index: number, hash: string): Promise<string | null> {
  const [entry] = (await data<{ attributes: ServedLeaf }[]>(api, `/log/entries?from=${index}`)).map((d) => d.attributes);
  if (entry?.leaf_index !== index) return `leaf ${index} is in the checkpoint, but the log no longer serves its entry`;
  return entry.leaf_hash === hash ? null : `leaf ${index} is served with the hash ${entry.leaf_hash}, not the receipt's`;
}

/**
 * Whether one of the receipt's bids was placed by the request of this digest. The signature binds
 * the receipt to its leaves, not to its bidder: a receipt of another request of the round (or any
 * other) verifies as well, so a bidder holding only its receipt proves its own bid by the digest
 * its leaf cites. A leaf's text is taken only when it hashes to the receipt's signed leaf hash.
 */
async function receiptDigestChecked(api: Api, entries: readonly { leaf_index: number | null; leaf_hash: string }[], digest: string): Promise<{ problem?: string; note?: string }> {
  let unread = 0;
  for (const e of entries) {
    const [entry] = e.leaf_index === null ? [] : (await data<{ attributes: ServedLeaf }[]>(api, `/log/entries?from=${e.leaf_index}`)).map((d) => d.attributes);
    if (entry?.leaf_index !== e.leaf_index || entry.leaf_hash !== e.leaf_hash || servedLeafProblem(entry)) {
      unread += 1;
      continue;
    }
    const leaf = JSON.parse(entry.data) as { kind?: unknown; request_digest?: unknown };
    if (leaf.kind === 'bid' && leaf.request_digest === digest) return { note: `your request placed the receipt's leaf ${e.leaf_index}` };
  }
  if (unread) return { note: `${unread} of the receipt's leaves could not be read to match your request's digest yet` };
  return { problem: `none of the receipt's bids was placed by the request with the digest ${digest}: the receipt is not your request's` };
}

/** The index of the leaf with this hash in the checkpoint's tree, as the log answers it; null when it answers none. */
async function foundByHash(api: Api, leafHash: string, treeSize: number): Promise<{ leaf_index: number | null; leaf_hash: string }> {
  const target = `/log/proof/inclusion?leaf_hash=${encodeURIComponent(leafHash)}&tree_size=${treeSize}`;
  const res = await api.json('GET', target);
  if (res.status === 404 && (res.body as { errors?: { code?: string }[] }).errors?.[0]?.code === 'leaf_not_found') return { leaf_index: null, leaf_hash: leafHash };
  if (res.status !== 200) throw new Refused(`GET ${target}: ${res.status} ${JSON.stringify(res.body)}`);
  return { leaf_index: (res.body as { data: { attributes: { leaf_index: number } } }).data.attributes.leaf_index, leaf_hash: leafHash };
}

/**
 * The lot's leaves as the log lists them, up to the first page that reaches past the checkpoint
 * (leaves beyond it are proven by none). Each must come after the one before: a log that served
 * the same page again held the verifier in this loop forever, silent (found by an outside test).
 */
async function lotLeaves(api: Api, lotId: string, treeSize: number): Promise<ServedLeaf[]> {
  const leaves: ServedLeaf[] = [];
  for (let from = 0; ; ) {
    const page = (await data<{ attributes: ServedLeaf }[]>(api, `/log/entries?lot_id=${encodeURIComponent(lotId)}&from=${from}`)).map((d) => d.attributes);
    for (const leaf of page) {
      if (!Number.isSafeInteger(leaf.leaf_index) || leaf.leaf_index < from) throw new Refused(`GET /log/entries listed leaf ${leaf.leaf_index} when asked for the lot's leaves from ${from}: the log lists its entries out of order`);
      from = leaf.leaf_index + 1;
      leaves.push(leaf);
    }
    if (page.length < 100 || from > treeSize) return leaves;
  }
}

/** The lot against its leaves. */
async function lotChecked(api: Api, lotId: string, leaves: ServedLeaf[], problems: string[], notes: string[]): Promise<LogCheck> {
  const lot = await data<{ id: string; attributes: Omit<ServedLot, 'id'> }>(api, `/lots/${encodeURIComponent(lotId)}`);
  const checked = checkLotLeaves(leaves, { id: lot.id, ...lot.attributes });
  problems.push(...checked.problems);
  notes.push(`lot ${lotId}: ${checked.bids.length} bids and ${checked.outcomes.length} outcomes in the log`);
  if (checked.backfilled.length) notes.push(`backfilled when the log was created: leaves ${checked.backfilled.join(', ')}`);
  return { ok: problems.length === 0, problems, notes, lot: { bids: checked.bids.length, backfilledBids: checked.bids.filter((b) => b.backfilled_at).length } };
}
