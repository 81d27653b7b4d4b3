import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountType, BlacklistState } from './account-type';

/** The authenticated account a request acts for. */
export interface Caller {
  accountId: string;
  accountType: AccountType;
  platformId: string | null;
  trustingPlatforms: string[];
  blacklist: BlacklistState | null;
  /** The key that signed the request, when it was signed (may be a signer of the account). */
  keyId: string | null;
  via: 'signature' | 'jwt';
  /** What the bid log cites of a write: hex SHA-256 of its signature (its replay digest), or for a bearer token's write of its method, target and body (`bearerRequestDigestOf`). */
  requestDigest?: string | null;
}

/** What every service method receives first: the caller and the request's own entity manager. */
export interface RequestContext {
  requestId: string;
  caller: Caller | null;
  /** The key whose signature verified, also when it is no account's (self-registration). */
  provenKey: string | null;
  /** Subject of a verified bearer token, also when its account no longer exists. */
  jwtSubject: string | null;
  em: EntityManager;
  /** The request came from a loopback peer with no forwarding headers. */
  local: boolean;
  /** The client's address: the peer's, or behind trusted proxies (TRUST_PROXY) the one they forwarded; limits count by it. */
  address: string;
}
