import { formatMoney } from '../../core/money';
import type { Rows } from '../../db/raw';
import type { PlannedBid } from '../bids';
import { bidderCommitment, entryHash, GENESIS, newSalt } from './bidlog.chain';

/** A log entry as the round writes it beside its bid. */
export interface LogEntryRow {
  seq: number;
  salt: string;
  hash: string;
}

/**
 * Chains a round's bids onto the lot's log, in the order they are placed, under the lot's lock:
 * `head` is what `openRound` read of the last entry, `ids` the ids it drew for the round's bids.
 */
export function chainRound<B extends PlannedBid>(lotId: string, head: Rows, ids: Rows, bids: B[], at: Date): (B & { id: string; entry: LogEntryRow })[] {
  if (bids.length > ids.length) throw new RangeError(`a round placed ${bids.length} bids with ${ids.length} ids drawn`);
  let seq = head.length ? Number(head[0].seq) : 0;
  let previous = head.length ? (head[0].hash as string) : GENESIS;
  const createdAt = at.toISOString();
  return bids.map((b, i) => {
    const id = ids[i].id as string;
    const salt = newSalt();
    seq += 1;
    const hash = entryHash({
      seq,
      bidId: id,
      lotId,
      amount: formatMoney(b.amount),
      createdAt,
      byProxy: b.byProxy,
      requestDigest: b.digest,
      bidderCommitment: bidderCommitment(salt, b.accountId),
      previous,
    });
    previous = hash;
    return { ...b, id, entry: { seq, salt, hash } };
  });
}
