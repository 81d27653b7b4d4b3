import { formatMoney } from '../../core/money';
import type { Money } from '../../core/money';
import type { Rows } from '../../db/raw';
import { bidderCommitment, entryHash, GENESIS, newSalt } from './bidlog.chain';
import { leafOf, type Leaf } from './tlog.leaves';

/** What the log chains of a bid the round planned (bids' `PlannedBid` is one): the log sits below bids, so it names the fields it reads. */
export interface ChainedBid {
  accountId: string;
  amount: Money;
  byProxy: boolean;
  digest: string | null;
}

/** A log entry as the round writes it beside its bid. */
export interface LogEntryRow {
  seq: number;
  salt: string;
  hash: string;
  /** The bid's leaf of the transparency log, appended by the same statement; none in the bench's baseline without the log. */
  leaf: Leaf | null;
}

/**
 * Chains a round's bids onto the lot's log, and makes their leaves of the transparency log, in the order they are placed, under the lot's lock:
 * `head` is what `openRound` read of the last entry, `ids` the ids it drew for the round's bids, `leaves`
 * false in the bench's baseline without the transparency log (TLOG_APPEND=off).
 */
export function chainRound<B extends ChainedBid>(lotId: string, head: Rows, ids: Rows, bids: B[], at: Date, leaves: boolean): (B & { id: string; entry: LogEntryRow })[] {
  if (bids.length > ids.length) throw new RangeError(`a round placed ${bids.length} bids with ${ids.length} ids drawn`);
  let seq = head.length ? Number(head[0].seq) : 0;
  let previous = head.length ? (head[0].hash as string) : GENESIS;
  const createdAt = at.toISOString();
  return bids.map((b, i) => {
    const id = ids[i].id as string;
    const salt = newSalt();
    seq += 1;
    const amount = formatMoney(b.amount);
    const commitment = bidderCommitment(salt, b.accountId);
    const hash = entryHash({ seq, bidId: id, lotId, amount, createdAt, byProxy: b.byProxy, requestDigest: b.digest, bidderCommitment: commitment, previous });
    previous = hash;
    const leaf = !leaves ? null : leafOf({
      v: 'bid_tlog/1',
      kind: 'bid',
      lot_id: lotId,
      bid_id: id,
      amount,
      created_at: createdAt,
      by_proxy: b.byProxy,
      request_digest: b.digest,
      bidder_commitment: commitment,
      backfilled_at: null,
    });
    return { ...b, id, entry: { seq, salt, hash, leaf } };
  });
}
