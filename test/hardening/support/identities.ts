import { createPrivateKey, generateKeyPairSync, hkdfSync } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { SignJWT } from 'jose';
import type { TestApp } from '../../helpers/app';
import { signHeaders, type RequestOptions, type TestResponse } from '../../helpers/client';

/**
 * The service's JWT key, derived from the master seed as the service derives it (src/auth/jwt.ts):
 * a token it signs is genuine, so an expired one fails on its expiry alone.
 */
function serviceKey(master: Keypair) {
  const seed = Buffer.from(hkdfSync('sha256', master.rawSecretKey(), Buffer.alloc(0), 'auction-jwt-ed25519-v1', 32));
  const x = Keypair.fromRawEd25519Seed(seed).rawPublicKey().toString('base64url');
  return createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x, d: seed.toString('base64url') }, format: 'jwk' });
}

const claims = (platformId: string) => ({ account_type: 4, platform_id: platformId, trusting_platforms: [], email_verified: true, phone_verified: false });

/** Bearer tokens no request may pass with: expired (genuine key), signed by another key, and `alg: none`. */
export async function badTokens(t: TestApp, accountId: string, platformId: string): Promise<Record<'expiredJwt' | 'foreignJwt' | 'noneJwt', string>> {
  const now = Math.floor(Date.now() / 1000);
  const expiredJwt = await new SignJWT(claims(platformId))
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setSubject(accountId)
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 3600)
    .setJti('expired')
    .sign(serviceKey(t.master));
  const foreignJwt = await new SignJWT(claims(platformId))
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setSubject(accountId)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(generateKeyPairSync('ed25519').privateKey);
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const noneJwt = `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: accountId, ...claims(platformId), iat: now, exp: now + 3600 })}.`;
  return { expiredJwt, foreignJwt, noneJwt };
}

/** A request signed by `keypair` whose signature is then altered: it verifies no more. */
export function tampered(t: TestApp, keypair: Keypair, method: string, target: string, opts: RequestOptions): Promise<TestResponse> {
  const headers: Record<string, string> = {};
  const body = opts.body === undefined ? null : Buffer.from(JSON.stringify(opts.body));
  signHeaders(method, target, headers, body, { keypair });
  headers.signature = headers.signature.replace(/signature="(.)/, (_m, c: string) => `signature="${c === 'A' ? 'B' : 'A'}`);
  return t.client.request(method, target, { ...opts, headers: { ...opts.headers, ...headers } });
}

/** The same signed request sent twice: the answers to both. */
export async function replayed(t: TestApp, keypair: Keypair, method: string, target: string, opts: RequestOptions): Promise<[TestResponse, TestResponse]> {
  const headers: Record<string, string> = {};
  const body = opts.body === undefined ? null : Buffer.from(JSON.stringify(opts.body));
  signHeaders(method, target, headers, body, { keypair });
  const first = await t.client.request(method, target, { ...opts, headers: { ...opts.headers, ...headers } });
  const second = await t.client.request(method, target, { ...opts, headers: { ...opts.headers, ...headers } });
  return [first, second];
}
