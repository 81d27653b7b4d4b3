import { createHash, randomFillSync } from 'node:crypto';

/** The `previous` of a lot's first entry. */
export const GENESIS = '0'.repeat(64);

/** What an entry's hash covers: everything a verifier is shown of the bid, and the entry before it. */
export interface ChainedEntry {
  seq: number;
  bidId: string;
  lotId: string;
  /** Two decimals, as the API writes money. */
  amount: string;
  /** ISO 8601 with milliseconds. */
  createdAt: string;
  byProxy: boolean;
  /** Hex SHA-256 of the signature of the request that placed the bid (of the max bid for a proxy raise); for a request sent with a bearer token, `bearerRequestDigestOf` its method, target and body. Null only in entries written before bearer requests had one. */
  requestDigest: string | null;
  /** Hex SHA-256 of `salt:account`: the bidder, hidden from whoever may not know it. */
  bidderCommitment: string;
  previous: string;
}

/** What the master key signs when a lot closes: the head of its chain and the outcome it led to. */
export interface ChainHead {
  lotId: string;
  entries: number;
  head: string;
  /** The lot's highest bid as the chain leaves it, null without bids. */
  highestBid: string | null;
  winnerId: string | null;
  /** The seq of the winner's highest entry, null when the winner placed no bid (or there is none). */
  winnerSeq: number | null;
  /** The salt of that entry's commitment: shows the winner's entry to anyone, as winner_id is public. */
  winnerSalt: string | null;
  lotState: string;
  signedAt: string;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * A JSON array of strings, numbers, booleans and nulls has one encoding, so the hash needs no
 * canonicalisation library; the leading tag keeps an entry from ever hashing like a head.
 */
export function entryHash(e: ChainedEntry): string {
  return sha256(JSON.stringify(['bid_log/1', e.lotId, e.seq, e.bidId, e.amount, e.createdAt, e.byProxy, e.requestDigest, e.bidderCommitment, e.previous]));
}

export function headMessage(h: ChainHead): Buffer {
  return Buffer.from(
    JSON.stringify(['bid_log_head/1', h.lotId, h.entries, h.head, h.highestBid, h.winnerId, h.winnerSeq, h.winnerSalt, h.lotState, h.signedAt]),
    'utf8',
  );
}

export const bidderCommitment = (salt: string, accountId: string) => sha256(`${salt}:${accountId}`);

/**
 * Salts are cut from a pool the generator fills 256 at a time, as Node's `randomUUID` does its ids:
 * a call of its own per salt took 7 µs (1.6 % of the service's time in bench/bids.mjs), under the lot's lock.
 */
const SALT_BYTES = 16;
const saltPool = Buffer.alloc(SALT_BYTES * 256);
let saltAt = saltPool.length;

export const newSalt = (): string => {
  if (saltAt === saltPool.length) {
    randomFillSync(saltPool);
    saltAt = 0;
  }
  saltAt += SALT_BYTES;
  return saltPool.toString('hex', saltAt - SALT_BYTES, saltAt);
};

/** The digest a bidder keeps of its own signed request: SHA-256 of the Signature header's signature bytes. */
export const requestDigestOf = (signature: Buffer) => createHash('sha256').update(signature).digest('hex');

/**
 * The digest of a write sent with a bearer token, which has no signature to cite: SHA-256 of the
 * method (upper case), a space, the target exactly as sent (path and query), a line feed, then the
 * body's bytes. The bidder computes it from what it sent, as it does a signature's.
 */
export const bearerRequestDigestOf = (method: string, target: string, body: Buffer | null) =>
  createHash('sha256').update(`${method.toUpperCase()} ${target}\n`, 'utf8').update(body ?? Buffer.alloc(0)).digest('hex');
