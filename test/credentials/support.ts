import type { TestApp } from '../helpers/app';
import type { TestResponse } from '../helpers/client';
import { BlacklistEntry } from '../../src/modules/accounts/accounts.entity';
import type { BlacklistState } from '../../src/core/account-type';
import { SignInFailure } from '../../src/modules/credentials/credentials.entity';

/** POST /jwt with these attributes (unsigned: signing in needs no signature). */
export const signIn = (t: TestApp, attributes: Record<string, unknown>, type: unknown = 'jwt') =>
  t.client.post('/jwt', { data: { ...(type === undefined ? {} : { type }), attributes } });

/** Every password and stored hash must stay out of every answer. */
export function expectNoSecrets(res: TestResponse, ...passwords: string[]): void {
  expect(res.text).not.toMatch(/scrypt|password_hash|passwordHash/i);
  for (const p of passwords) expect(res.text).not.toContain(p);
}

export async function blacklist(t: TestApp, accountId: string, state: BlacklistState): Promise<void> {
  const em = t.orm.em.fork();
  em.create(BlacklistEntry, { accountId, state });
  await em.flush();
}

/** Moves the recorded failures of the subjects back in time, as if `ms` had passed. */
export async function ageFailures(t: TestApp, subjects: string[], ms: number): Promise<void> {
  const em = t.orm.em.fork();
  for (const failure of await em.find(SignInFailure, { subject: { $in: subjects } })) failure.failedAt = new Date(failure.failedAt.getTime() - ms);
  await em.flush();
}
