import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../core/context';
import { forbidden, unauthenticated } from '../core/errors';
import { rawQuery } from '../db/raw';
import { AccountSigner } from '../modules/accounts';
import type { JwtService, VerifiedJwt } from './jwt';
import { verifyEd25519 } from './keys';
import { AccountReads, type AccountRow, type Claim } from './account-reads';
import { bearerRequestDigestOf } from '../modules/bidlog';
import { replayDigest } from './replay';
import { bodyDigest, parseSignatureDate, parseSignatureParams, signingDigest, signingString } from './signature';

export interface IncomingAuth {
  method: string;
  /** Path and query exactly as sent. */
  target: string;
  header(name: string): string | undefined;
  /** The body bytes received, or null when the request has no body. */
  body: Buffer | null;
}

export interface Authentication {
  caller: Caller | null;
  /** The key whose signature verified, also when it belongs to no account yet (self-registration). */
  provenKey: string | null;
  /** The verified bearer token, even when its account no longer exists. */
  jwt: VerifiedJwt | null;
}

export interface AuthSettings {
  windowSeconds: number;
  legacy: boolean;
}

/** The account, signed for by its own key: refused once the account disabled that key on the ledger. */
function ownKeySigning(account: AccountRow): AccountRow {
  if (account.ownKeyWeight === 0) throw invalidSignature('the account disabled its own key (master weight 0); sign with one of its signers');
  return account;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const invalidSignature = (detail: string) => unauthenticated('signature_invalid', detail);

/** Resolves the caller of a request from its signature or bearer token. */
export class Authenticator {
  private readonly reads = new AccountReads();

  constructor(
    private readonly jwt: JwtService,
    private readonly settings: AuthSettings,
  ) {}

  /**
   * A verified signature by a key that is no account yet comes through with no caller and its key
   * proven: only self-registration honours it (`refuseUnknownKey` in core/policies).
   */
  async authenticate(em: EntityManager, req: IncomingAuth): Promise<Authentication> {
    const authorization = req.header('authorization');
    const signatureValue =
      req.header('signature') ?? (authorization?.startsWith('Signature ') ? authorization.slice(10) : undefined);
    const bearer = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : undefined;
    if (authorization && !signatureValue && bearer === undefined) {
      throw unauthenticated('unsupported_authorization', 'Authorization must use the Bearer or Signature scheme');
    }

    const jwt = bearer !== undefined ? await this.jwt.verify(bearer) : null;
    const signed = signatureValue !== undefined ? await this.verifySignature(em, req, signatureValue) : null;
    const signedAs = signed ? (signed.account?.id ?? signed.keyId) : null;
    if (jwt && signedAs && jwt.sub !== signedAs) {
      throw unauthenticated('credentials_mismatch', 'the signature and the bearer token name different accounts');
    }
    const provenKey = signed?.keyId ?? null;
    if (signed && !signed.account) {
      this.claimOnce(signed.claim);
      return { caller: null, provenKey, jwt };
    }

    const accountId = signed?.account?.id ?? jwt?.sub;
    if (!accountId) return { caller: null, provenKey, jwt };
    const account = signed?.account ?? (await this.reads.read(em, accountId, null));
    if (!account) return { caller: null, provenKey, jwt };

    const blacklist = account.blacklist;
    if (blacklist === 'stopped') throw forbidden('account_blocked', 'this account is blocked');
    if (signed) this.claimOnce(signed.claim);
    return {
      jwt,
      provenKey,
      caller: {
        accountId,
        accountType: account.accountType,
        platformId: account.platformId,
        trustingPlatforms: account.trustingPlatforms,
        blacklist,
        keyId: signed?.keyId ?? null,
        via: signed ? 'signature' : 'jwt',
        requestDigest: signed ? (signed.claim?.digest.toString('hex') ?? null) : WRITE_METHODS.has(req.method.toUpperCase()) ? bearerRequestDigestOf(req.method, req.target, req.body) : null,
      },
    };
  }

  /**
   * A write signature is accepted once within the window, on every instance;
   * it was recorded with the first read of its account.
   */
  private claimOnce(claim: Claim | null): void {
    if (claim && !claim.claimed) throw unauthenticated('signature_replayed', 'this signature was already used');
  }

  private async verifySignature(em: EntityManager, req: IncomingAuth, value: string) {
    const params = parseSignatureParams(value);
    if (!params) throw invalidSignature('the Signature header is malformed');
    if (params.algorithm !== 'ed25519-sha256') throw invalidSignature(`unknown algorithm ${params.algorithm}`);
    const signedHeaders = new Set(params.headers);
    if (!signedHeaders.has('(request-target)')) throw invalidSignature('(request-target) must be signed');

    const legacy = this.settings.legacy && params.headers.length === 1;
    if (!legacy) this.checkFreshness(req, signedHeaders);
    if (!legacy && req.body && req.body.length > 0) this.checkDigest(req, signedHeaders);

    const text = signingString(req, params.headers);
    if (!verifyEd25519(params.keyId, signingDigest(text), params.signature)) {
      throw invalidSignature('the signature does not verify');
    }

    const actingId = req.header('x-account-id');
    if (actingId !== undefined && !signedHeaders.has('x-account-id')) {
      throw invalidSignature('X-Account-Id must be among the signed headers');
    }
    const claim: Claim | null = WRITE_METHODS.has(req.method.toUpperCase())
      ? { digest: replayDigest(params.signature), expiresAt: new Date(Date.now() + 2 * this.settings.windowSeconds * 1000), claimed: null }
      : null;
    const account = await this.resolveActingAccount(em, params.keyId, actingId, claim);
    return { account, keyId: params.keyId, claim };
  }

  private checkFreshness(req: IncomingAuth, signedHeaders: Set<string>): void {
    const name = signedHeaders.has('x-date') ? 'x-date' : signedHeaders.has('date') ? 'date' : null;
    if (!name) throw invalidSignature('date or x-date must be signed');
    const value = req.header(name);
    const at = value === undefined ? null : parseSignatureDate(value);
    if (at === null) throw invalidSignature(`${name} is not an IMF-fixdate or RFC 3339 date`);
    if (Math.abs(Date.now() - at) > this.settings.windowSeconds * 1000) {
      throw unauthenticated('signature_expired', `${name} is outside the ${this.settings.windowSeconds}s window`);
    }
  }

  private checkDigest(req: IncomingAuth, signedHeaders: Set<string>): void {
    if (!signedHeaders.has('digest')) throw unauthenticated('digest_mismatch', 'a request with a body must sign digest');
    if (req.header('digest') !== bodyDigest(req.body as Buffer)) {
      throw unauthenticated('digest_mismatch', 'digest does not match the body received');
    }
  }

  private async resolveActingAccount(em: EntityManager, keyId: string, actingId: string | undefined, claim: Claim | null): Promise<AccountRow | null> {
    if (actingId !== undefined) {
      const account = await this.reads.read(em, actingId, claim);
      if (!account) throw invalidSignature('X-Account-Id names no account');
      if (actingId === keyId) return ownKeySigning(account);
      if (!(await em.count(AccountSigner, { accountId: actingId, signerKey: keyId }))) {
        throw invalidSignature('keyId is not a signer of X-Account-Id');
      }
      return account;
    }
    const own = await this.reads.read(em, keyId, claim);
    if (own) return ownKeySigning(own);
    // Signers of service accounts only: any ledger account may name any key as its signer, which
    // must neither make that key ambiguous for its own accounts nor block its self-registration.
    const [{ rows: signerOf }] = await rawQuery(em, {
      text: 'select s.account_id from account_signers s join accounts a on a.id = s.account_id where s.signer_key = ? limit 2',
      params: [keyId],
    });
    if (signerOf.length === 0) return null;
    if (signerOf.length !== 1) {
      throw invalidSignature(signerOf.length ? 'keyId signs for several accounts: send X-Account-Id' : 'keyId is not a known account');
    }
    const account = await this.reads.read(em, signerOf[0].account_id as string, null);
    if (!account) throw invalidSignature('keyId is not a known account');
    return account;
  }

}
