import { accountSubject, emailSubject, fromAddress, fromStrangers } from '../../src/modules/credentials/sign-in-limit';
import { startTestApp, type TestApp } from '../helpers/app';
import { appWithPlatform } from '../helpers/world';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { ageFailures, signIn } from './support';

const world = appWithPlatform();

const wrong = (app: TestApp, user: CreatedAccount) => signIn(app, { account_id: user.id, password: 'wrong password' });
const right = (app: TestApp, user: CreatedAccount) => signIn(app, { account_id: user.id, password: user.password });

async function fail(app: TestApp, user: CreatedAccount, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await wrong(app, user);
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('invalid_credentials');
  }
}

describe('failed sign-ins', () => {
  it('answer 429 too_many_attempts from the 11th attempt, without checking the password, by account id and by email', async () => {
    const user = await createAccount(world.t, world.platform);
    await fail(world.t, user, 10);
    const eleventh = await right(world.t, user);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.errors[0]).toMatchObject({ status: '429', code: 'too_many_attempts' });
    const byEmail = await signIn(world.t, { email: user.email, platform_id: world.platform.publicKey(), password: user.password });
    expect(byEmail.status).toBe(429);
    const gql = await world.t.client.graphql('mutation($id: String!, $pw: String!) { issueToken(accountId: $id, password: $pw) { token } }', {
      id: user.id,
      pw: user.password,
    });
    expect(gql.body.errors[0].extensions).toEqual({ code: 'too_many_attempts', status: 429 });

    const other = await createAccount(world.t, world.platform);
    expect((await right(world.t, other)).status).toBe(201);
  });

  it('count failures by email against the account as well', async () => {
    const user = await createAccount(world.t, world.platform);
    for (let i = 0; i < 10; i++) {
      const res = await signIn(world.t, { email: user.email, platform_id: world.platform.publicKey(), password: 'wrong password' });
      expect(res.status).toBe(401);
    }
    expect((await right(world.t, user)).status).toBe(429);
  });

  it('count an unknown email, in any case, per platform', async () => {
    const other = await createPlatform(world.t);
    for (let i = 0; i < 10; i++) {
      const email = i % 2 ? 'Ghost@Example.com' : 'ghost@example.com';
      expect((await signIn(world.t, { email, platform_id: world.platform.publicKey(), password: 'wrong password' })).status).toBe(401);
    }
    const eleventh = await signIn(world.t, { email: 'GHOST@example.com', platform_id: world.platform.publicKey(), password: 'wrong password' });
    expect(eleventh.status).toBe(429);
    const elsewhere = await signIn(world.t, { email: 'ghost@example.com', platform_id: other.publicKey(), password: 'wrong password' });
    expect(elsewhere.status).toBe(401);
  });

  it('do not include successful sign-ins', async () => {
    const user = await createAccount(world.t, world.platform);
    await fail(world.t, user, 9);
    expect((await right(world.t, user)).status).toBe(201);
    await fail(world.t, user, 1);
    expect((await right(world.t, user)).status).toBe(429);
  });

  it('expire after 15 minutes', async () => {
    const user = await createAccount(world.t, world.platform);
    await fail(world.t, user, 10);
    expect((await right(world.t, user)).status).toBe(429);
    // The user never signed in from 127.0.0.1: its failures count for the address and for all strangers.
    const subjects = [fromAddress(accountSubject(user.id), '127.0.0.1'), fromStrangers(accountSubject(user.id))];
    await ageFailures(world.t, subjects, 14 * 60 * 1000);
    expect((await right(world.t, user)).status).toBe(429);
    await ageFailures(world.t, subjects, 60 * 1000);
    expect((await right(world.t, user)).status).toBe(201);
    expect(emailSubject(world.platform.publicKey(), ' A@B.com ')).toBe(`email:${world.platform.publicKey()}:a@b.com`);
  });

  it('let at most 10 of many concurrent wrong attempts through to the password check', async () => {
    const user = await createAccount(world.t, world.platform);
    const answers = await Promise.all(Array.from({ length: 16 }, () => wrong(world.t, user)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  });

  it('are counted across instances sharing the database', async () => {
    const second = await startTestApp({ MASTER_SEED: world.t.config.MASTER_SEED as string }, { url: world.t.config.DATABASE_URL as string, drop: async () => {} });
    try {
      const user = await createAccount(world.t, world.platform);
      await fail(world.t, user, 5);
      await fail(second, user, 5);
      expect((await right(second, user)).status).toBe(429);
      expect((await right(world.t, user)).status).toBe(429);
    } finally {
      await second.close();
    }
  });
});
