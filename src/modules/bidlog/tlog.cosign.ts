import { createHash } from 'node:crypto';
import { Keypair, StrKey } from '@stellar/stellar-sdk';
import type { ParsedNote } from './tlog.note';

/**
 * Co-signatures of checkpoints by witnesses, as C2SP tlog-cosignature/v1 defines them: a note
 * signature line `— <name> base64(key ID || timestamp || signature)`, the key ID being
 * SHA-256(name || 0x0A || 0x04 || public key)[:4], the timestamp a big-endian u64 of POSIX
 * seconds, and the Ed25519 signature over `cosignature/v1\ntime <timestamp>\n` and the
 * checkpoint's body. A witness is configured by its C2SP vkey `<name>+<key ID hex>+base64(0x04 || public key)`.
 */
export interface WitnessKey {
  name: string;
  keyId: Buffer;
  /** The witness's key as a Stellar account id (G…), the form this service verifies Ed25519 with. */
  publicKey: string;
}

const COSIGNATURE_V1 = 4;
const DASH = '\u2014';

export const cosignatureKeyId = (name: string, rawPublicKey: Buffer): Buffer =>
  createHash('sha256').update(`${name}\n`, 'utf8').update(Buffer.of(COSIGNATURE_V1)).update(rawPublicKey).digest().subarray(0, 4);

/** The vkey of a witness's key pair. */
export const witnessVkey = (name: string, key: Keypair): string =>
  `${name}+${cosignatureKeyId(name, key.rawPublicKey()).toString('hex')}+${Buffer.concat([Buffer.of(COSIGNATURE_V1), key.rawPublicKey()]).toString('base64')}`;

/** A vkey of a cosignature/v1 key, or why it is not one. */
export function parseWitnessKey(vkey: string): WitnessKey | string {
  const parts = vkey.trim().split('+');
  // The name holds no '+'; base64 may, so the key is the rest.
  const [name, hex, ...rest] = parts;
  const key = Buffer.from(rest.join('+'), 'base64');
  if (!name || !/^[0-9a-f]{8}$/.test(hex ?? '') || !rest.length) return `${JSON.stringify(vkey)} is no vkey (name+keyid+key)`;
  if (key.length !== 33 || key[0] !== COSIGNATURE_V1) return `${name}'s vkey is not an Ed25519 cosignature/v1 key (type 0x04, 32 bytes)`;
  const raw = key.subarray(1);
  const keyId = cosignatureKeyId(name, raw);
  if (keyId.toString('hex') !== hex) return `${name}'s vkey names key ID ${hex}, its key's is ${keyId.toString('hex')}`;
  return { name, keyId, publicKey: StrKey.encodeEd25519PublicKey(raw) };
}

export const cosignatureMessage = (body: string, timestamp: number): Buffer => Buffer.from(`cosignature/v1\ntime ${timestamp}\n${body}`, 'utf8');

/** The witness's signature line over a checkpoint's body at `timestamp` (POSIX seconds). */
export function cosignatureLine(name: string, key: Keypair, body: string, timestamp: number): string {
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(timestamp));
  const signature = key.sign(cosignatureMessage(body, timestamp));
  return `${DASH} ${name} ${Buffer.concat([cosignatureKeyId(name, key.rawPublicKey()), time, signature]).toString('base64')}\n`;
}

/** The note's signature line by `witness`, verified: its timestamp, or null when it has none that verifies. */
export function cosignedAt(note: ParsedNote, witness: WitnessKey): number | null {
  const verifier = Keypair.fromPublicKey(witness.publicKey);
  for (const s of note.signatures) {
    if (s.name !== witness.name || !s.keyHash.equals(witness.keyId) || s.signature.length !== 72) continue;
    const timestamp = s.signature.readBigUInt64BE(0);
    if (timestamp >= 2n ** 63n) continue;
    if (verifier.verify(cosignatureMessage(note.body, Number(timestamp)), s.signature.subarray(8))) return Number(timestamp);
  }
  return null;
}
