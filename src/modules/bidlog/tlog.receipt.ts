import { Keypair } from '@stellar/stellar-sdk';
import { leafHash, verifyInclusion } from './tlog.merkle';

/**
 * A bid's receipt (docs/bid-log.md): given at once for every accepted bid, it is the log key's
 * signature over the leaves the request appended, and promises them in the next checkpoint
 * (what Certificate Transparency calls a signed certificate timestamp). Version 1 names each
 * leaf by its index and hash; version 2, signed when the index was not known by the answer,
 * by its hash alone, as a CT SCT does: a verifier finds the index with the proof by hash.
 * Version 3 names the leaves as version 1 does, but the signature is over the root of a small
 * Merkle tree of every receipt its bid round gave at once, which the receipt proves its place in:
 * one signature a round instead of one a request.
 */
export interface UnsignedReceipt {
  origin: string;
  log_id: string;
  timestamp: string;
  entries: { leaf_index: number; leaf_hash: string }[];
}

export interface Receipt extends UnsignedReceipt {
  /** The log key (G…) that signed. */
  signer: string;
  /** Ed25519 over `receiptMessage`, base64. */
  signature: string;
}

export interface UnsignedHashReceipt {
  version: 2;
  origin: string;
  log_id: string;
  timestamp: string;
  entries: { leaf_hash: string }[];
}

export interface HashReceipt extends UnsignedHashReceipt {
  signer: string;
  signature: string;
}

export interface UnsignedBatchReceipt {
  version: 3;
  origin: string;
  log_id: string;
  timestamp: string;
  entries: { leaf_index: number; leaf_hash: string }[];
  /** The round's batch: how many receipts it holds, this one's place among them, its root and this receipt's audit path to it (RFC 9162, base64). */
  batch: { size: number; index: number; root: string; path: string[] };
}

export interface BatchReceipt extends UnsignedBatchReceipt {
  signer: string;
  /** Ed25519 over `receiptMessage`: the batch's root, not the entries. */
  signature: string;
}

/** Any version; a receipt without `version` is of version 1. */
export type AnyReceipt = Receipt | HashReceipt | BatchReceipt;

export const receiptVersion = (r: AnyReceipt): 1 | 2 | 3 => ('version' in r ? r.version : 1);

export const isHashReceipt = (r: AnyReceipt): r is HashReceipt => receiptVersion(r) === 2;

/** A receipt's leaf in its round's batch: the RFC 9162 leaf hash of its entries as version 1 signs them. */
export const batchLeaf = (entries: readonly { leaf_index: number; leaf_hash: string }[]): Buffer =>
  leafHash(Buffer.from(JSON.stringify(entries.map((e) => [e.leaf_index, e.leaf_hash])), 'utf8'));

/** What the log key signs: a tagged JSON array, so that a receipt never reads as a checkpoint or a head, nor one version as another. */
export const receiptMessage = (r: UnsignedReceipt | UnsignedHashReceipt | UnsignedBatchReceipt): Buffer =>
  Buffer.from(
    JSON.stringify(
      !('version' in r)
        ? ['bid_tlog_receipt/1', r.origin, r.log_id, r.timestamp, r.entries.map((e) => [e.leaf_index, e.leaf_hash])]
        : r.version === 2
          ? ['bid_tlog_receipt/2', r.origin, r.log_id, r.timestamp, r.entries.map((e) => e.leaf_hash)]
          : ['bid_tlog_receipt/3', r.origin, r.log_id, r.timestamp, r.batch.size, r.batch.root],
    ),
    'utf8',
  );

/** Whether a receipt of version 3 is where its path says in the batch whose root was signed. */
const inItsBatch = (r: BatchReceipt): boolean =>
  verifyInclusion(r.batch.index, r.batch.size, batchLeaf(r.entries), r.batch.path.map((h) => Buffer.from(h, 'base64')), Buffer.from(r.batch.root, 'base64'));

/** The `Bid-Receipt` header's value: the receipt's JSON in base64. */
export const encodeReceipt = (r: AnyReceipt): string => Buffer.from(JSON.stringify(r), 'utf8').toString('base64');

export function receiptSignedBy(r: AnyReceipt, publicKey: string): boolean {
  try {
    // Every version but 1 and 2 is signed as a batch's root (receiptMessage): its entries are proved by their path alone.
    if (r.signer !== publicKey || ('version' in r && r.version !== 2 && (r.version !== 3 || !inItsBatch(r)))) return false;
    return Keypair.fromPublicKey(publicKey).verify(receiptMessage(r), Buffer.from(r.signature, 'base64'));
  } catch {
    return false;
  }
}
