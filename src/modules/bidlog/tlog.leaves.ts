import { leafHash } from './tlog.merkle';

/**
 * What a leaf of the transparency log holds: a JSON object, stored and served as the exact text
 * that was hashed, so a verifier hashes the bytes it is given and reads the fields from them.
 * Leaves entered by the migration that created the log carry `backfilled_at`; the others null.
 */
export interface BidLeaf {
  v: 'bid_tlog/1';
  kind: 'bid';
  lot_id: string;
  bid_id: string;
  amount: string;
  created_at: string;
  by_proxy: boolean;
  request_digest: string | null;
  /** Hex SHA-256 of `salt:account`, the same commitment as the lot's chain entry. */
  bidder_commitment: string;
  backfilled_at: string | null;
}

/** An event that changes a lot's outcome: its close (sold or finished), its reserve's lapse. */
export interface OutcomeLeaf {
  v: 'bid_tlog/1';
  kind: 'close' | 'lapse';
  lot_id: string;
  lot_state: string;
  highest_bid: string | null;
  winner_id: string | null;
  /** How many bids of the lot the log held when the outcome was decided. */
  bids: number;
  at: string;
  backfilled_at: string | null;
}

export type LeafData = BidLeaf | OutcomeLeaf;

export interface Leaf {
  data: string;
  hash: Buffer;
}

export const leafOf = (fields: LeafData): Leaf => {
  const data = JSON.stringify(fields);
  return { data, hash: leafHash(Buffer.from(data, 'utf8')) };
};

/** The leaf's fields, or null when its text is no leaf of this log. */
export function parseLeaf(data: string): LeafData | null {
  try {
    const value = JSON.parse(data) as LeafData;
    return value && value.v === 'bid_tlog/1' && ['bid', 'close', 'lapse'].includes(value.kind) && typeof value.lot_id === 'string' ? value : null;
  } catch {
    return null;
  }
}
