import { Keypair } from '@stellar/stellar-sdk';

/**
 * A bid's receipt (docs/bid-log.md): given at once for every accepted bid, it is the log key's
 * signature over the leaves the request appended, and promises them in the next checkpoint
 * (what Certificate Transparency calls a signed certificate timestamp). Version 1 names each
 * leaf by its index and hash; version 2, signed when the index was not known by the answer,
 * by its hash alone, as a CT SCT does: a verifier finds the index with the proof by hash.
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

/** Either version; a receipt without `version` is of version 1. */
export type AnyReceipt = Receipt | HashReceipt;

export const isHashReceipt = (r: AnyReceipt): r is HashReceipt => 'version' in r && r.version === 2;

/** What the log key signs: a tagged JSON array, so that a receipt never reads as a checkpoint or a head, nor one version as the other. */
export const receiptMessage = (r: UnsignedReceipt | UnsignedHashReceipt): Buffer =>
  Buffer.from(
    JSON.stringify(
      'version' in r
        ? ['bid_tlog_receipt/2', r.origin, r.log_id, r.timestamp, r.entries.map((e) => e.leaf_hash)]
        : ['bid_tlog_receipt/1', r.origin, r.log_id, r.timestamp, r.entries.map((e) => [e.leaf_index, e.leaf_hash])],
    ),
    'utf8',
  );

/** The `Bid-Receipt` header's value: the receipt's JSON in base64. */
export const encodeReceipt = (r: AnyReceipt): string => Buffer.from(JSON.stringify(r), 'utf8').toString('base64');

export function receiptSignedBy(r: AnyReceipt, publicKey: string): boolean {
  try {
    return r.signer === publicKey && Keypair.fromPublicKey(publicKey).verify(receiptMessage(r), Buffer.from(r.signature, 'base64'));
  } catch {
    return false;
  }
}
