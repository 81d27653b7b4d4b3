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

/**
 * EdDSA tokens. The signing key is derived from the master seed, so every instance that shares
 * the master key issues and accepts the same tokens, and restarts keep tokens valid.
 */
export class JwtService {
  private constructor(
    private readonly privateKey: KeyObject,
    private readonly publicKey: KeyObject,
    private readonly publicJwk: JWK,
    private readonly ttlSeconds: number,
  ) {}

  static async create(master: Keypair, ttlSeconds: number): Promise<JwtService> {
    const seed = Buffer.from(hkdfSync('sha256', master.rawSecretKey(), Buffer.alloc(0), 'auction-jwt-ed25519-v1', 32));
    const keypair = Keypair.fromRawEd25519Seed(seed);
    const x = keypair.rawPublicKey().toString('base64url');
    const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x, d: seed.toString('base64url') }, format: 'jwk' });
    const publicKey = createPublicKey(privateKey);
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    return new JwtService(privateKey, publicKey, { ...jwk, kid, alg: 'EdDSA', use: 'sig' }, ttlSeconds);
  }

  async issue(claims: JwtClaims): Promise<string> {
    const { sub, ...rest } = claims;
    return new SignJWT({ ...rest })
      .setProtectedHeader({ alg: 'EdDSA', kid: this.publicJwk.kid, typ: 'JWT' })
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .setJti(randomUUID())
      .sign(this.privateKey);
  }

  async verify(token: string): Promise<VerifiedJwt> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, { algorithms: ['EdDSA'] });
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') throw new Error('claims');
      return payload as unknown as VerifiedJwt;
    } catch {
      throw unauthenticated('jwt_invalid', 'the bearer token is expired, malformed or not ours');
    }
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }
}
