import { resource, type Resource } from '../../rest/document';
import type { BidLog, SeenEntry, SignedHead } from './bidlog.service';

const entry = (e: SeenEntry) => ({
  seq: e.seq,
  bid_id: e.bidId,
  lot_id: e.lotId,
  amount: e.amount,
  created_at: e.createdAt,
  by_proxy: e.byProxy,
  request_digest: e.requestDigest,
  bidder_commitment: e.bidderCommitment,
  previous: e.previous,
  hash: e.hash,
  bidder_id: e.bidderId,
  bidder_salt: e.bidderSalt,
});

const head = (h: SignedHead) => ({
  lot_id: h.lotId,
  entries: h.entries,
  head: h.head,
  highest_bid: h.highestBid,
  winner_id: h.winnerId,
  winner_seq: h.winnerSeq,
  winner_salt: h.winnerSalt,
  lot_state: h.lotState,
  signed_at: h.signedAt,
  signer: h.signer,
  signature: h.signature,
});

/** `{type: bid_logs, id: <lot id>, attributes: {entries, head, signer}}` (docs/bid-log.md). */
export const presentBidLog = (log: BidLog): Resource =>
  resource('bid_logs', log.lotId, { entries: log.entries.map(entry), head: log.head && head(log.head), signer: log.signer });
