import type { Keypair } from '@stellar/stellar-sdk';
import type { TestApp } from '../helpers/app';
import { TestClient, type TestResponse } from '../helpers/client';
import { Account } from '../../src/modules/accounts/accounts.entity';

/** Shared by the blacklist and account tests: JWTs, blacklisting, and a watch over every response. */

/** A bearer token for an account, issued the way POST /jwt issues it (independent of credentials). */
export async function bearerFor(t: TestApp, accountId: string): Promise<string> {
  const account = await t.orm.em.fork().findOneOrFail(Account, { id: accountId });
  return t.app.jwt.issue({
    sub: account.id,
    account_type: account.accountType,
    platform_id: account.platformId,
    trusting_platforms: account.trustingPlatforms,
    email_verified: account.emailVerified,
    phone_verified: account.phoneVerified,
  });
}

/** PUT /blacklist signed by `staff`; throws unless it answers 200. */
export async function blacklist(t: TestApp, staff: Keypair, accountId: string, state: 'stopped' | 'paused'): Promise<void> {
  const res = await t.client.as(staff).put('/blacklist', { data: { type: 'accounts', id: accountId, attributes: { state } } });
  if (res.status !== 200) throw new Error(`blacklisting failed: ${res.status} ${res.text}`);
}

/** Lets admins of another platform act as its staff (trusting_platforms is set outside the API). */
export async function trust(t: TestApp, adminId: string, platformId: string): Promise<void> {
  await t.orm.em.fork().nativeUpdate(Account, { id: adminId }, { trustingPlatforms: [platformId] });
}

export interface Recorded {
  method: string;
  target: string;
  status: number;
  text: string;
}

/**
 * Records every response any TestClient receives in this test file, so that a last test can
 * assert that none of them leaked a password or a password hash.
 */
export function watchResponses(): Recorded[] {
  const recorded: Recorded[] = [];
  const original = TestClient.prototype.request;
  TestClient.prototype.request = async function <T>(this: TestClient, method: string, target: string, opts = {}): Promise<TestResponse<T>> {
    const res = await original.call(this, method, target, opts);
    recorded.push({ method, target, status: res.status, text: res.text });
    return res as TestResponse<T>;
  };
  return recorded;
}

/** What a response may never carry: the plain password, a scrypt hash, or a password member in a success body. */
export function leaksOf(recorded: Recorded[], passwords: string[]): Recorded[] {
  return recorded.filter(
    (r) =>
      /scrypt\$|password_hash|passwordHash/.test(r.text) ||
      passwords.some((p) => r.text.includes(p)) ||
      (r.status < 400 && /"password"/i.test(r.text)),
  );
}
