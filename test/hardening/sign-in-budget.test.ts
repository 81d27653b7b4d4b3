import type { Keypair } from '@stellar/stellar-sdk';
import type { TestClient, TestResponse } from '../helpers/client';
import { createAccount, createPlatform, lastToken, type CreatedAccount } from '../helpers/factories';
import { appWith } from '../helpers/world';

const world = appWith(async (t) => ({ platform: await createPlatform(t) }));

const signIn = (client: TestClient, accountId: string, password: string) => client.post('/jwt', { data: { type: 'jwt', attributes: { account_id: accountId, password } } });
const byEmail = (client: TestClient, platform: Keypair, user: CreatedAccount, password: string) =>
  client.post('/jwt', { data: { type: 'jwt', attributes: { email: user.email, platform_id: platform.publicKey(), password } } });
const ISSUE = 'mutation($id: String!, $pw: String!) { issueToken(accountId: $id, password: $pw) { token } }';

/** Refused before the password is looked at, with when to come back: within the 15-minute window. */
function expectDelayed(res: TestResponse): void {
  expect(res.status).toBe(429);
  expect(res.body.errors[0].code).toBe('too_many_attempts');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(900);
}

describe('the sign-in budget of an account across addresses', () => {
  // 100 attempts, each checked one hashes a password (scrypt): slow on a loaded machine.
  it('gives 10 addresses × 10 wrong guesses 10 password checks in all, not 100; the owner still signs in at once from an address he used', async () => {
    const { t, platform } = world;
    const owner = await createAccount(t, platform);
    const usual = t.client.from('127.0.30.1');
    expect((await signIn(usual, owner.id, owner.password)).status).toBe(201);

    const answers: TestResponse[] = [];
    for (let a = 1; a <= 10; a++) {
      const guesser = t.client.from(`127.0.31.${a}`);
      for (let i = 0; i < 10; i++) answers.push(await signIn(guesser, owner.id, `guess ${a}.${i}`));
    }
    expect(answers.filter((r) => r.status === 401).length).toBe(10);
    const refused = answers.filter((r) => r.status !== 401);
    expect(refused).toHaveLength(90);
    refused.forEach(expectDelayed);
    // The email names the same account: guessing by it from yet another address draws on the same budget.
    expectDelayed(await byEmail(t.client.from('127.0.31.11'), platform, owner, 'another guess'));

    expect((await signIn(usual, owner.id, owner.password)).status).toBe(201);
    const twin = await usual.graphql(ISSUE, { id: owner.id, pw: owner.password });
    expect(twin.body.errors).toBeUndefined();
    expect(twin.body.data.issueToken.token).toEqual(expect.any(String));
    // From an address he never signed in from, the owner is delayed (until the window frees), not locked out for good.
    expectDelayed(await signIn(t.client.from('127.0.32.1'), owner.id, owner.password));
    const elsewhere = await t.client.from('127.0.32.1').graphql(ISSUE, { id: owner.id, pw: owner.password });
    expect(elsewhere.body.errors[0].extensions).toEqual({ code: 'too_many_attempts', status: 429 });
  }, 240_000);

  it('lets a stranger’s guesses on one account leave the other accounts alone', async () => {
    const { t, platform } = world;
    const [target, bystander] = [await createAccount(t, platform), await createAccount(t, platform)];
    for (let a = 1; a <= 10; a++) expect((await signIn(t.client.from(`127.0.33.${a}`), target.id, 'wrong password')).status).toBe(401);
    expectDelayed(await signIn(t.client.from('127.0.33.11'), target.id, 'wrong password'));
    expect((await signIn(t.client.from('127.0.33.11'), bystander.id, bystander.password)).status).toBe(201);
  }, 120_000);

  it('is given back by a password recovery: the owner then signs in from a new address', async () => {
    const { t, platform } = world;
    const owner = await createAccount(t, platform);
    const verification = await lastToken(t.orm, owner.email);
    expect((await t.client.patch('/accounts/verification/email', { data: { type: 'accounts', id: owner.id, attributes: { token: verification } } })).status).toBe(200);
    for (let a = 1; a <= 10; a++) expect((await signIn(t.client.from(`127.0.34.${a}`), owner.id, 'wrong password')).status).toBe(401);
    const traveller = t.client.from('127.0.35.1');
    expectDelayed(await signIn(traveller, owner.id, owner.password));
    expect((await traveller.put('/recovery_requests', { data: { type: 'recovery_requests', id: owner.id } })).status).toBe(204);
    const token = await lastToken(t.orm, owner.email);
    expect((await traveller.patch('/recovery_requests', { data: { type: 'recovery_requests', id: owner.id, attributes: { token, new_password: 'recovered password' } } })).status).toBe(204);
    expect((await signIn(traveller, owner.id, 'recovered password')).status).toBe(201);
  }, 120_000);
});
