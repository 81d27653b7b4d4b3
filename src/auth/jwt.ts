import { createPrivateKey, createPublicKey, hkdfSync, randomUUID, type KeyObject } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { calculateJwkThumbprint, exportJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { unauthenticated } from '../core/errors';

export interface JwtClaims {
  sub: string;
  account_type: number;
  platform_id: string | null;
  trusting_platforms: string[];
  email_verified: boolean;
  phone_verified: boolean;
}

export interface VerifiedJwt extends JwtClaims {
  iat: number;
  exp: number;
  jti: string;
}

/** One signing key: its private half, its public half and its JWK (with its `kid`). */
interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwk: JWK;
}

/** Which derived key signs, and whether the one before it is still accepted (rotation with overlapping JWKS). */
export interface JwtKeys {
  version: number;
  acceptPrevious: boolean;
}

/**
 * The `version`th token key of a master seed: every instance that shares the master key derives
 * the same keys, so they issue and accept the same tokens and restarts keep tokens valid.
 */
async function derivedKey(master: Keypair, version: number): Promise<SigningKey> {
  const seed = Buffer.from(hkdfSync('sha256', master.rawSecretKey(), Buffer.alloc(0), `auction-jwt-ed25519-v${version}`, 32));
  const x = Keypair.fromRawEd25519Seed(seed).rawPublicKey().toString('base64url');
  const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x, d: seed.toString('base64url') }, format: 'jwk' });
  const publicKey = createPublicKey(privateKey);
  const jwk = await exportJWK(publicKey);
  return { privateKey, publicKey, jwk: { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'EdDSA', use: 'sig' } };
}

/**
 * EdDSA tokens, signed with the current key (`JWT_KEY_VERSION`). After a rotation the previous
 * key stays in the JWKS and is still accepted (`JWT_PREVIOUS_KEY`) until the tokens it signed
 * have expired, so that no client is signed out by the change.
 */
export class JwtService {
  private constructor(
    private readonly current: SigningKey,
    private readonly accepted: SigningKey[],
    private readonly ttlSeconds: number,
  ) {}

  static async create(master: Keypair, ttlSeconds: number, keys: JwtKeys = { version: 1, acceptPrevious: false }): Promise<JwtService> {
    const current = await derivedKey(master, keys.version);
    const previous = keys.acceptPrevious && keys.version > 1 ? [await derivedKey(master, keys.version - 1)] : [];
    return new JwtService(current, [current, ...previous], ttlSeconds);
  }

  async issue(claims: JwtClaims): Promise<string> {
    const { sub, ...rest } = claims;
    return new SignJWT({ ...rest })
      .setProtectedHeader({ alg: 'EdDSA', kid: this.current.jwk.kid, typ: 'JWT' })
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .setJti(randomUUID())
      .sign(this.current.privateKey);
  }

  async verify(token: string): Promise<VerifiedJwt> {
    try {
      const { payload } = await jwtVerify(token, (header) => this.keyOf(header.kid), { algorithms: ['EdDSA'] });
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') throw new Error('claims');
      return payload as unknown as VerifiedJwt;
    } catch {
      throw unauthenticated('jwt_invalid', 'the bearer token is expired, malformed or not ours');
    }
  }

  jwks(): { keys: JWK[] } {
    return { keys: this.accepted.map((k) => k.jwk) };
  }

  /** The accepted key a token names; a token naming none is tried against the current key (and fails if not its). */
  private keyOf(kid: string | undefined): KeyObject {
    return (this.accepted.find((k) => k.jwk.kid === kid) ?? this.current).publicKey;
  }
}
