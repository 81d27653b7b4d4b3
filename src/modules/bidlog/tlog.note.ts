import { createHash } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';

/**
 * Checkpoints in the C2SP tlog-checkpoint format, carried in a C2SP signed note: the body is the
 * origin line, the tree size, the root hash in base64, each ending in a line feed; a blank line,
 * then one line per signature, `— <key name> <base64(key hash[0:4] || Ed25519 signature)>`.
 */
export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
}

const DASH = '\u2014';

export const checkpointBody = (c: Checkpoint) => `${c.origin}\n${c.size}\n${c.root.toString('base64')}\n`;

/** The 4-byte key hash of an Ed25519 note key: SHA-256(name || 0x0A || 0x01 || public key). */
export const keyHashOf = (name: string, key: Keypair): Buffer =>
  createHash('sha256').update(`${name}\n`, 'utf8').update(Buffer.of(1)).update(key.rawPublicKey()).digest().subarray(0, 4);

/** The note's signature line by `key` under `name`. */
export const signatureLine = (name: string, key: Keypair, body: string): string =>
  `${DASH} ${name} ${Buffer.concat([keyHashOf(name, key), key.sign(Buffer.from(body, 'utf8'))]).toString('base64')}\n`;

export const signNote = (body: string, name: string, key: Keypair): string => `${body}\n${signatureLine(name, key, body)}`;

export interface ParsedNote {
  body: string;
  checkpoint: Checkpoint;
  signatures: { name: string; keyHash: Buffer; signature: Buffer }[];
}

/** A signed checkpoint note, or why it is not one. */
export function parseNote(note: string): ParsedNote | string {
  const split = note.indexOf('\n\n');
  if (split < 0) return 'the note has no signature block';
  const body = note.slice(0, split + 1);
  const lines = body.slice(0, -1).split('\n');
  if (lines.length < 3) return 'the checkpoint has fewer than three lines';
  const [origin, sizeText, rootText] = lines;
  if (!/^\d{1,15}$/.test(sizeText)) return `the checkpoint's size ${JSON.stringify(sizeText)} is no number`;
  const root = Buffer.from(rootText, 'base64');
  if (root.length !== 32 || root.toString('base64') !== rootText) return "the checkpoint's root is no base64 SHA-256 hash";
  const signatures = [];
  for (const line of note.slice(split + 2).split('\n').filter((l) => l !== '')) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!m) return `the signature line ${JSON.stringify(line.slice(0, 80))} is malformed`;
    const raw = Buffer.from(m[2], 'base64');
    if (raw.length < 5) return `the signature of ${m[1]} is too short`;
    signatures.push({ name: m[1], keyHash: raw.subarray(0, 4), signature: raw.subarray(4) });
  }
  return { body, checkpoint: { origin, size: Number(sizeText), root }, signatures };
}

/** Whether `key` (a G… public key) signed the note under `name`. */
export function noteSignedBy(note: ParsedNote, name: string, publicKey: string): boolean {
  let key: Keypair;
  try {
    key = Keypair.fromPublicKey(publicKey);
  } catch {
    return false;
  }
  const hash = keyHashOf(name, key);
  return note.signatures.some((s) => s.name === name && s.keyHash.equals(hash) && s.signature.length === 64 && key.verify(Buffer.from(note.body, 'utf8'), s.signature));
}
