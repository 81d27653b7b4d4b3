import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { StrKey, type Keypair } from '@stellar/stellar-sdk';

const cache = new Map<string, KeyObject>();
const CACHE_LIMIT = 10_000;

/** A Node key object for a `G…` account id; null when the id is not a valid ed25519 StrKey. */
export function publicKeyObject(accountId: string): KeyObject | null {
  const hit = cache.get(accountId);
  if (hit) return hit;
  if (!StrKey.isValidEd25519PublicKey(accountId)) return null;
  const raw = StrKey.decodeEd25519PublicKey(accountId);
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(accountId, key);
  return key;
}

/** ed25519 verification through Node's native crypto (the SDK's pure-JS path is ten times slower). */
export function verifyEd25519(accountId: string, message: Buffer, signature: Buffer): boolean {
  const key = publicKeyObject(accountId);
  if (!key || signature.length !== 64) return false;
  return verify(null, message, key, signature);
}

const privateKeys = new WeakMap<Keypair, KeyObject>();

/** ed25519 signing through Node's native crypto: the same signature as `keypair.sign`, in a tenth of its time. */
export function signEd25519(keypair: Keypair, message: Buffer): Buffer {
  let key = privateKeys.get(keypair);
  if (!key) {
    key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: keypair.rawSecretKey().toString('base64url'), x: keypair.rawPublicKey().toString('base64url') }, format: 'jwk' });
    privateKeys.set(keypair, key);
  }
  return sign(null, message, key);
}
