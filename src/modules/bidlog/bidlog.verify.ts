import { Keypair } from '@stellar/stellar-sdk';
import { bidderCommitment, entryHash, GENESIS, headMessage, type ChainHead } from './bidlog.chain';

/** An entry as GET /lots/{id}/bid_log serves it. */
export interface ServedEntry {
  seq: number;
  bid_id: string;
  lot_id: string;
  amount: string;
  created_at: string;
  by_proxy: boolean;
  request_digest: string | null;
  bidder_commitment: string;
  hash: string;
  bidder_id?: string | null;
  bidder_salt?: string | null;
}

export interface ServedHead {
  lot_id: string;
  entries: number;
  head: string;
  highest_bid: string | null;
  winner_id: string | null;
  winner_seq: number | null;
  winner_salt: string | null;
  lot_state: string;
  signed_at: string;
  signer: string;
  signature: string;
}

export interface ServedLog {
  entries: ServedEntry[];
  head: ServedHead | null;
  signer: string;
}

/** What the verifier reads of the lot itself (GET /lots/{id}). */
export interface ServedLot {
  id: string;
  highest_bid: string;
  winner_id: string;
  lot_state_str: string;
}

export interface Verification {
  ok: boolean;
  problems: string[];
  entries: number;
  /** The head is signed (the lot closed) and the signature verified. */
  signed: boolean;
  /** The winner placed the last bid of the chain; false when a manager chose another (or buy now). */
  winnerIsTopBidder: boolean | null;
  /** With `requestDigest`: the entry that request placed, if the chain holds it. */
  proof: { seq: number; bidId: string } | null;
}

export interface VerifyOptions {
  /** The master key to trust, from elsewhere than the log (else the log's own `signer`, reported). */
  signer?: string;
  /** A bidder's digest of its own request (signed, or sent with a bearer token), to find in the chain. */
  requestDigest?: string;
}

const signatureHolds = (signer: string, message: Buffer, signature: string): boolean => {
  try {
    return Keypair.fromPublicKey(signer).verify(message, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
};

/**
 * Checks a lot's bid log as served (docs/bid-log.md): every hash recomputed along the chain from
 * the genesis, the seqs consecutive, the amounts increasing, the head's signature, and that the
 * lot's highest bid and winner are what the chain and the signed head say.
 */
export function verifyBidLog(log: ServedLog, lot: ServedLot, options: VerifyOptions = {}): Verification {
  const problems: string[] = [];
  let previous = GENESIS;
  let lastAmount: number | null = null;
  log.entries.forEach((e, i) => {
    if (e.seq !== i + 1) problems.push(`entry ${i + 1} has seq ${e.seq}`);
    if (e.lot_id !== lot.id) problems.push(`entry ${e.seq} names lot ${e.lot_id}`);
    const recomputed = entryHash({
      seq: e.seq,
      bidId: e.bid_id,
      lotId: e.lot_id,
      amount: e.amount,
      createdAt: e.created_at,
      byProxy: e.by_proxy,
      requestDigest: e.request_digest,
      bidderCommitment: e.bidder_commitment,
      previous,
    });
    if (recomputed !== e.hash) problems.push(`entry ${e.seq} (bid ${e.bid_id}) does not hash to its stored hash over the previous entry`);
    if (e.bidder_id && e.bidder_salt && bidderCommitment(e.bidder_salt, e.bidder_id) !== e.bidder_commitment) {
      problems.push(`entry ${e.seq}: the bidder shown does not open its commitment`);
    }
    const amount = Number(e.amount);
    if (lastAmount !== null && !(amount > lastAmount)) problems.push(`entry ${e.seq}: amount ${e.amount} does not exceed the previous one`);
    lastAmount = amount;
    previous = e.hash;
  });
  const last = log.entries[log.entries.length - 1];
  const chainHighest = last ? last.amount : null;
  if (lot.highest_bid !== (chainHighest ?? '0.00')) problems.push(`the lot's highest_bid ${lot.highest_bid} is not the chain's ${chainHighest ?? 'none'}`);

  const signed = checkHead(log, lot, previous, chainHighest, options, problems);
  const head = log.head;
  let winnerIsTopBidder: boolean | null = null;
  if (head && head.winner_id) {
    if (head.winner_seq !== null) {
      const won = log.entries[head.winner_seq - 1];
      if (!won || !head.winner_salt || bidderCommitment(head.winner_salt, head.winner_id) !== won.bidder_commitment) {
        problems.push(`the head's winner ${head.winner_id} did not place entry ${head.winner_seq}`);
      }
    }
    winnerIsTopBidder = head.winner_seq !== null && head.winner_seq === log.entries.length;
  }
  const digest = options.requestDigest?.toLowerCase();
  const proved = digest ? log.entries.find((e) => e.request_digest === digest) : undefined;
  if (digest && !proved) problems.push(`no entry cites the request digest ${options.requestDigest}`);
  return {
    ok: problems.length === 0,
    problems,
    entries: log.entries.length,
    signed,
    winnerIsTopBidder,
    proof: proved ? { seq: proved.seq, bidId: proved.bid_id } : null,
  };
}

function checkHead(log: ServedLog, lot: ServedLot, chainHead: string, chainHighest: string | null, options: VerifyOptions, problems: string[]): boolean {
  const head = log.head;
  if (!head) {
    if (lot.lot_state_str !== 'lot_state_pending') problems.push('the lot is closed but its log has no signed head');
    if (lot.winner_id) problems.push(`the lot has winner ${lot.winner_id} but its log has no signed head`);
    return false;
  }
  const signer = options.signer ?? log.signer;
  if (head.signer !== signer) problems.push(`the head is signed by ${head.signer}, not ${signer}`);
  const message: ChainHead = {
    lotId: head.lot_id,
    entries: head.entries,
    head: head.head,
    highestBid: head.highest_bid,
    winnerId: head.winner_id,
    winnerSeq: head.winner_seq,
    winnerSalt: head.winner_salt,
    lotState: head.lot_state,
    signedAt: head.signed_at,
  };
  const holds = signatureHolds(signer, headMessage(message), head.signature);
  if (!holds) problems.push('the head\'s signature does not verify');
  if (head.lot_id !== lot.id) problems.push(`the head names lot ${head.lot_id}`);
  if (head.entries !== log.entries.length) problems.push(`the head counts ${head.entries} entries, the log has ${log.entries.length}`);
  if (head.head !== chainHead) problems.push('the head is not the hash of the last entry');
  if (head.highest_bid !== chainHighest) problems.push(`the head's highest bid ${head.highest_bid ?? 'none'} is not the chain's ${chainHighest ?? 'none'}`);
  if ((head.winner_id ?? '') !== lot.winner_id) problems.push(`the lot's winner ${lot.winner_id || 'none'} is not the head's ${head.winner_id ?? 'none'}`);
  if (`lot_state_${head.lot_state}` !== lot.lot_state_str) problems.push(`the lot is ${lot.lot_state_str}, the head says ${head.lot_state}`);
  return holds && head.signer === signer;
}
