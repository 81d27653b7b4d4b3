import { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import type { TestClient, TestResponse } from '../helpers/client';
import { createAccount, createPlatform } from '../helpers/factories';

/** The address limits, low, that the test world turns off for every other test file. */
const LIMITS = {
  // An hour: a window aligned to the clock that turned over mid-test would restart the counts.
  RATE_LIMIT_WINDOW: '3600',
  RATE_LIMIT_WRITES_PER_ADDRESS: '6',
  RATE_LIMIT_WRITES_PER_ACCOUNT: '4',
  RATE_LIMIT_ACCOUNTS_PER_ADDRESS: '3',
  RATE_LIMIT_ACCOUNTS_WINDOW: '3600',
};

let t: TestApp;
let platform: Keypair;
beforeAll(async () => {
  t = await startTestApp(LIMITS);
  // Created from an address of its own, so that the tests' addresses start from nothing.
  platform = await createPlatform({ ...t, client: t.client.from('127.0.1.1') });
});
afterAll(() => t.close());

/** A write anybody may send: a conversion, which changes nothing but is a POST. */
const write = (client: TestClient) => client.post('/convert', { data: [{ attributes: { from: 'EUR', to: 'USD', amount: 1 } }] });

const emailOf = (keypair: Keypair) => `${keypair.publicKey().slice(0, 16).toLowerCase()}@example.com`;

const register = (client: TestClient, keypair = Keypair.random()) =>
  client.as(keypair).post('/accounts', {
    data: { type: 'accounts', id: keypair.publicKey(), attributes: { account_type: 'user', platform_id: platform.publicKey(), first_name: 'Ann', last_name: 'Lee', email: emailOf(keypair), password: 'correct horse battery' } },
  });

const REGISTER = 'mutation($input: CreateAccountInput!) { createAccount(input: $input) { id } }';
const registerGraphql = (client: TestClient, keypair = Keypair.random()) =>
  client.as(keypair).graphql(REGISTER, {
    input: { id: keypair.publicKey(), accountType: 'user', platformId: platform.publicKey(), firstName: 'Ann', lastName: 'Lee', email: emailOf(keypair), password: 'correct horse battery' },
  });

function expect429(res: TestResponse, window: number): void {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(window);
}

describe('rate limits by address and account (PostgreSQL counters)', () => {
  it('answers the write beyond RATE_LIMIT_WRITES_PER_ADDRESS with 429 too_many_requests, Retry-After and the JSON:API body; reads and other addresses go on', async () => {
    const client = t.client.from('127.0.2.1');
    for (let i = 0; i < 6; i++) expect((await write(client)).status).toBe(200);
    const refused = await write(client);
    expect429(refused, 3600);
    expect(refused.body).toEqual({
      errors: [{ status: '429', code: 'too_many_requests', title: 'Too Many Requests', detail: 'more than 6 writes from this address in 3600 seconds; try again later' }],
    });
    // A GraphQL mutation is a write of the same address.
    const mutation = await client.graphql('mutation { markNotificationsRead(ids: []) }');
    expect429(mutation, 3600);
    expect(mutation.body.errors[0].extensions).toEqual({ code: 'too_many_requests', status: 429 });
    expect((await client.get('/')).status).toBe(200);
    expect((await client.graphql('{ ping { masterAccountId } }')).status).toBe(200);
    expect((await write(t.client.from('127.0.2.2'))).status).toBe(200);
  });

  it('counts an account’s writes from every address against RATE_LIMIT_WRITES_PER_ACCOUNT', async () => {
    const user = await createAccount({ ...t, client: t.client.from('127.0.3.1') }, platform);
    const addresses = ['127.0.3.2', '127.0.3.3', '127.0.3.4', '127.0.3.5'];
    for (const a of addresses) expect((await write(t.client.from(a).as(user.keypair))).status).toBe(200);
    const fifth = await write(t.client.from('127.0.3.6').as(user.keypair));
    expect429(fifth, 3600);
    expect(fifth.body.errors[0].detail).toBe('more than 4 writes by this account in 3600 seconds; try again later');
    // The same address unsigned is another caller.
    expect((await write(t.client.from('127.0.3.6'))).status).toBe(200);
  });

  it('counts each field of a mutation as a write: aliased writes in one request do not pass RATE_LIMIT_WRITES_PER_ACCOUNT', async () => {
    const aliased = (n: number) => `mutation { ${Array.from({ length: n }, (_, i) => `w${i}: markNotificationsRead(ids: [])`).join(' ')} }`;
    const user = await createAccount({ ...t, client: t.client.from('127.0.6.1') }, platform);
    const three = await t.client.from('127.0.6.2').as(user.keypair).graphql(aliased(3));
    expect({ status: three.status, errors: three.body.errors, fields: Object.keys(three.body.data ?? {}).length }).toEqual({ status: 200, errors: undefined, fields: 3 });
    expect((await write(t.client.from('127.0.6.3').as(user.keypair))).status).toBe(200);
    expect429(await write(t.client.from('127.0.6.4').as(user.keypair)), 3600);

    // Five at once against a limit of four: refused whole, before any of them runs.
    const other = await createAccount({ ...t, client: t.client.from('127.0.6.5') }, platform);
    const five = await t.client.from('127.0.6.6').as(other.keypair).graphql(aliased(5));
    expect429(five, 3600);
    expect({ code: five.body.errors[0].extensions.code, data: five.body.data }).toEqual({ code: 'too_many_requests', data: undefined });
  });

  it('slows self-registration: the 4th account from one address within the hour answers 429, over REST and GraphQL alike', async () => {
    const client = t.client.from('127.0.4.1');
    expect((await register(client)).status).toBe(201);
    expect((await registerGraphql(client)).body.errors).toBeUndefined();
    expect((await register(client)).status).toBe(201);
    const fourth = await register(client);
    expect429(fourth, 3600);
    expect(fourth.body.errors[0]).toMatchObject({ code: 'too_many_requests', detail: 'more than 3 accounts created from this address in 3600 seconds; try again later' });
    const twin = await registerGraphql(client);
    expect429(twin, 3600);
    expect(twin.body.errors[0].extensions.code).toBe('too_many_requests');
    expect((await register(t.client.from('127.0.4.2'))).status).toBe(201);
  });

  it('counts registerAccount, the payload twin of createAccount, as an account created', async () => {
    const client = t.client.from('127.0.4.3');
    const payload = (keypair = Keypair.random()) =>
      client.as(keypair).graphql('mutation($input: RegisterAccountInput!) { registerAccount(input: $input) { account { id } userErrors { code } } }', {
        input: { id: keypair.publicKey(), accountType: 'user', platformId: platform.publicKey(), firstName: 'Ann', lastName: 'Lee', email: emailOf(keypair), password: 'correct horse battery' },
      });
    for (let i = 0; i < 3; i++) expect((await payload()).body.data.registerAccount.userErrors).toEqual([]);
    const fourth = await payload();
    expect429(fourth, 3600);
    expect(fourth.body.errors[0].extensions.code).toBe('too_many_requests');
  });

  it('shares the counts between two instances on one database', async () => {
    const second = await startTestApp({ ...LIMITS, MASTER_SEED: t.config.MASTER_SEED as string }, { url: t.config.DATABASE_URL as string, drop: async () => {} });
    try {
      const here = t.client.from('127.0.5.1');
      const there = second.client.from('127.0.5.1');
      for (let i = 0; i < 3; i++) expect((await write(here)).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await write(there)).status).toBe(200);
      expect429(await write(here), 3600);
      expect429(await write(there), 3600);
    } finally {
      await second.close();
    }
  });
});

describe('sign-in limits by address and account together', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await startTestApp({ SIGN_IN_FAILURES_PER_ADDRESS: '10' });
  });
  afterAll(() => s.close());

  const signIn = (client: TestClient, accountId: string, password: string) => client.post('/jwt', { data: { type: 'jwt', attributes: { account_id: accountId, password } } });

  // Each account created and each attempt hashes a password (scrypt): slow on a loaded machine.
  it('slows spraying: one wrong guess on each of 13 accounts from one address meets 429 from the 11th, while the owners sign in from elsewhere', async () => {
    const home = await createPlatform(s);
    const accounts = [];
    for (let i = 0; i < 13; i++) accounts.push(await createAccount(s, home));
    const sprayer = s.client.from('127.0.6.1');
    const statuses = [];
    for (const a of accounts) statuses.push((await signIn(sprayer, a.id, 'Summer2026!')).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(3).fill(429));
    const refused = await signIn(sprayer, accounts[12].id, accounts[12].password);
    expect(refused.body.errors[0].code).toBe('too_many_attempts');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    for (const a of [accounts[0], accounts[12]]) expect((await signIn(s.client.from('127.0.6.2'), a.id, a.password)).status).toBe(201);
  }, 120_000);

  it('does not let a stranger lock an account out: his 10 failures refuse him, not the owner from an address he signed in from', async () => {
    const home = await createPlatform(s);
    const owner = await createAccount(s, home);
    expect((await signIn(s.client.from('127.0.7.2'), owner.id, owner.password)).status).toBe(201);
    const stranger = s.client.from('127.0.7.1');
    for (let i = 0; i < 10; i++) expect((await signIn(stranger, owner.id, `wrong password ${i}`)).status).toBe(401);
    expect((await signIn(stranger, owner.id, owner.password)).status).toBe(429);
    expect((await signIn(s.client.from('127.0.7.2'), owner.id, owner.password)).status).toBe(201);
    const gql = await s.client
      .from('127.0.7.2')
      .graphql('mutation($id: String!, $pw: String!) { issueToken(accountId: $id, password: $pw) { token } }', { id: owner.id, pw: owner.password });
    expect(gql.body.errors).toBeUndefined();
  });
});

describe('the counters', () => {
  it('are pruned by the cleaner once their window has ended, and kept while it runs', async () => {
    const pg = t.orm.em.getConnection();
    await pg.execute("insert into rate_limit_counters (key, window_start, hits) values ('write:address:192.0.2.1', now() - interval '2 hours', 3), ('write:address:192.0.2.2', now(), 1)");
    expect(await t.app.services.rateLimits.prune(t.orm.em.fork())).toBeGreaterThanOrEqual(1);
    const rows = await pg.execute<{ key: string }[]>("select key from rate_limit_counters where key like 'write:address:192.0.2.%' order by key");
    expect(rows.map((r) => r.key)).toEqual(['write:address:192.0.2.2']);
  });
});
