import { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import type { TestClient, TestResponse } from '../helpers/client';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { bearerFor, blacklist, leaksOf, trust, watchResponses } from '../blacklist/support';

/**
 * The permission table for accounts and the blacklist, one row per case: each
 * role of the own platform, of another platform, unsigned, a stopped and a paused caller.
 */

// Rows end with an optional error code: the callbacks take a rest parameter, because jest treats a
// callback that declares more parameters than a row gives as one that waits for `done`.
const recorded = watchResponses();
let t: TestApp;

type Role =
  | 'platform' | 'admin' | 'admin (bearer)' | 'broker' | 'user' | 'other user'
  | 'trusted admin' | 'other platform' | 'other admin' | 'other user (other platform)'
  | 'stopped admin' | 'paused admin' | 'stopped user' | 'paused user' | 'unsigned';

let P: Keypair;
const accounts: Partial<Record<Role, CreatedAccount>> = {};
const clients = {} as Record<Role, TestClient>;
let victim: CreatedAccount;

const BLOCKED = [403, 'account_blocked'] as const;
const NOT_ALLOWED = [403, 'not_allowed'] as const;
const UNAUTHENTICATED = [401, 'unauthenticated'] as const;

beforeAll(async () => {
  t = await startTestApp();
  P = await createPlatform(t);
  const Q = await createPlatform(t);
  const make = async (role: Role, platform: Keypair, type: 'user' | 'admin' | 'broker') => {
    accounts[role] = await createAccount(t, platform, { type });
    clients[role] = t.client.as(accounts[role].keypair);
  };
  await make('admin', P, 'admin');
  await make('broker', P, 'broker');
  await make('user', P, 'user');
  await make('other user', P, 'user');
  await make('trusted admin', Q, 'admin');
  await make('other admin', Q, 'admin');
  await make('other user (other platform)', Q, 'user');
  await make('stopped admin', P, 'admin');
  await make('paused admin', P, 'admin');
  await make('stopped user', P, 'user');
  await make('paused user', P, 'user');
  clients.platform = t.client.as(P);
  clients['other platform'] = t.client.as(Q);
  clients.unsigned = t.client;
  const token = await bearerFor(t, accounts.admin!.id);
  const bearerClient = Object.create(t.client) as TestClient;
  bearerClient.request = (method: string, target: string, opts = {}) => t.client.request(method, target, { ...opts, bearer: token });
  clients['admin (bearer)'] = bearerClient;

  await trust(t, accounts['trusted admin']!.id, P.publicKey());
  await blacklist(t, P, accounts['stopped admin']!.id, 'stopped');
  await blacklist(t, P, accounts['paused admin']!.id, 'paused');
  await blacklist(t, P, accounts['stopped user']!.id, 'stopped');
  await blacklist(t, P, accounts['paused user']!.id, 'paused');
  victim = await createAccount(t, P);
});
afterAll(() => t.close());

function expectOutcome(res: TestResponse, status: number, code?: string) {
  expect({ status: res.status, code: res.body?.errors?.[0]?.code }).toEqual({ status, code });
}

describe('POST /accounts', () => {
  const body = (id: string, type: string, platformId: string) => ({
    data: {
      type: 'accounts',
      id,
      attributes: {
        account_type: type,
        platform_id: platformId,
        first_name: 'New',
        last_name: 'Account',
        email: `${Keypair.random().publicKey().slice(1, 12).toLowerCase()}@example.com`,
        password: 'correct horse battery',
        ...(type === 'broker' ? { broker_cities: ['Tbilisi'] } : {}),
      },
    },
  });

  it.each<[string, Role | 'the new account itself', number, string?]>([
    ['user', 'the new account itself', 201],
    ['user', 'platform', 201],
    ['user', 'admin', 201],
    ['user', 'admin (bearer)', 201],
    ['user', 'trusted admin', 201],
    ['user', 'paused admin', 201],
    ['user', 'broker', ...NOT_ALLOWED],
    ['user', 'other user', ...NOT_ALLOWED],
    ['user', 'other platform', ...NOT_ALLOWED],
    ['user', 'other admin', ...NOT_ALLOWED],
    ['user', 'paused user', ...NOT_ALLOWED],
    ['user', 'stopped admin', ...BLOCKED],
    ['user', 'stopped user', ...BLOCKED],
    ['user', 'unsigned', ...UNAUTHENTICATED],
    ['admin', 'platform', 201],
    ['admin', 'admin', 201],
    ['admin', 'trusted admin', 201],
    ['admin', 'the new account itself', ...NOT_ALLOWED],
    ['admin', 'user', ...NOT_ALLOWED],
    ['admin', 'broker', ...NOT_ALLOWED],
    ['admin', 'other platform', ...NOT_ALLOWED],
    ['admin', 'other admin', ...NOT_ALLOWED],
    ['admin', 'stopped admin', ...BLOCKED],
    ['admin', 'unsigned', ...UNAUTHENTICATED],
    ['broker', 'platform', 201],
    ['broker', 'admin', 201],
    ['broker', 'paused admin', 201],
    ['broker', 'the new account itself', ...NOT_ALLOWED],
    ['broker', 'user', ...NOT_ALLOWED],
    ['broker', 'other admin', ...NOT_ALLOWED],
    ['broker', 'other platform', ...NOT_ALLOWED],
    ['broker', 'stopped admin', ...BLOCKED],
    ['broker', 'unsigned', ...UNAUTHENTICATED],
  ])('an account of type %s created by %s → %i', async (...[type, by, status, code]) => {
    const id = Keypair.random();
    const client = by === 'the new account itself' ? t.client.as(id) : clients[by];
    const res = await client.post('/accounts', body(id.publicKey(), type, P.publicKey()));
    expectOutcome(res, status, code);
    if (status === 201) expect(res.body.data).toMatchObject({ id: id.publicKey(), attributes: { account_type_str: type, platform_id: P.publicKey() } });
    const read = await t.client.get(`/accounts/${id.publicKey()}`);
    expect(read.status).toBe(status === 201 ? 200 : 404);
  });
});

describe('PATCH /accounts/{id}', () => {
  it.each<[Role, Role, number, string?]>([
    ['user', 'user', 200],
    ['user', 'platform', 200],
    ['user', 'admin', 200],
    ['user', 'admin (bearer)', 200],
    ['user', 'trusted admin', 200],
    ['user', 'paused admin', 200],
    ['user', 'other user', ...NOT_ALLOWED],
    ['user', 'broker', ...NOT_ALLOWED],
    ['user', 'other admin', ...NOT_ALLOWED],
    ['user', 'other platform', ...NOT_ALLOWED],
    ['user', 'other user (other platform)', ...NOT_ALLOWED],
    ['user', 'stopped admin', ...BLOCKED],
    ['user', 'unsigned', ...UNAUTHENTICATED],
    ['stopped user', 'stopped user', ...BLOCKED],
    ['paused user', 'paused user', 200],
    ['admin', 'other admin', ...NOT_ALLOWED],
    ['admin', 'platform', 200],
  ])("the %s's account, changed by %s → %i", async (...[target, by, status, code]) => {
    const id = accounts[target]!.id;
    const company = `Co ${Math.random().toString(36).slice(2, 8)}`;
    const res = await clients[by].patch(`/accounts/${id}`, { data: { type: 'accounts', id, attributes: { company } } });
    expectOutcome(res, status, code);
    const read = await t.client.get(`/accounts/${id}`);
    expect(read.body.data.attributes.company === company).toBe(status === 200);
  });
});

describe('PUT /blacklist', () => {
  it.each<[Role, number, string?]>([
    ['platform', 200],
    ['admin', 200],
    ['admin (bearer)', 200],
    ['trusted admin', 200],
    ['paused admin', 200],
    ['user', ...NOT_ALLOWED],
    ['broker', ...NOT_ALLOWED],
    ['other admin', ...NOT_ALLOWED],
    ['other platform', ...NOT_ALLOWED],
    ['paused user', ...NOT_ALLOWED],
    ['stopped admin', ...BLOCKED],
    ['unsigned', ...UNAUTHENTICATED],
  ])('by %s → %i', async (...[by, status, code]) => {
    await t.client.as(P).delete(`/blacklist/${victim.id}`);
    const res = await clients[by].put('/blacklist', { data: { type: 'accounts', id: victim.id, attributes: { state: 'paused' } } });
    expectOutcome(res, status, code);
    const list = await t.client.as(P).get('/blacklist');
    expect(list.body.data.some((e: any) => e.id === victim.id)).toBe(status === 200);
  });
});

describe('GET /blacklist', () => {
  it.each<[Role, number, string?]>([
    ['platform', 200],
    ['admin', 200],
    ['admin (bearer)', 200],
    ['trusted admin', 200],
    ['paused admin', 200],
    ['other admin', 200],
    ['other platform', 200],
    ['user', ...NOT_ALLOWED],
    ['broker', ...NOT_ALLOWED],
    ['paused user', ...NOT_ALLOWED],
    ['stopped admin', ...BLOCKED],
    ['stopped user', ...BLOCKED],
    ['unsigned', ...UNAUTHENTICATED],
  ])('by %s → %i', async (...[by, status, code]) => {
    const res = await clients[by].get('/blacklist');
    expectOutcome(res, status, code);
    if (status === 200) {
      const ownPlatform = !by.startsWith('other');
      expect(res.body.data.some((e: any) => e.id === accounts['stopped admin']!.id)).toBe(ownPlatform);
    }
  });
});

describe('DELETE /blacklist/{account-id}', () => {
  it.each<[Role, number, string?]>([
    ['platform', 204],
    ['admin', 204],
    ['admin (bearer)', 204],
    ['trusted admin', 204],
    ['paused admin', 204],
    ['user', ...NOT_ALLOWED],
    ['broker', ...NOT_ALLOWED],
    ['other admin', ...NOT_ALLOWED],
    ['other platform', ...NOT_ALLOWED],
    ['stopped admin', ...BLOCKED],
    ['unsigned', ...UNAUTHENTICATED],
  ])('by %s → %i', async (...[by, status, code]) => {
    await blacklist(t, P, victim.id, 'stopped');
    const res = await clients[by].delete(`/blacklist/${victim.id}`);
    expectOutcome(res, status, status === 204 ? undefined : code);
    const list = await t.client.as(P).get('/blacklist');
    expect(list.body.data.some((e: any) => e.id === victim.id)).toBe(status !== 204);
  });
});

describe('GET /accounts/{id} view', () => {
  it.each<[Role, Role, number | 'full' | 'public', string?]>([
    ['user', 'user', 'full'],
    ['user', 'platform', 'full'],
    ['user', 'admin', 'full'],
    ['user', 'admin (bearer)', 'full'],
    ['user', 'trusted admin', 'full'],
    ['user', 'paused admin', 'full'],
    ['user', 'broker', 'public'],
    ['user', 'other user', 'public'],
    ['user', 'paused user', 'public'],
    ['user', 'other admin', 'public'],
    ['user', 'other platform', 'public'],
    ['user', 'other user (other platform)', 'public'],
    ['user', 'unsigned', 'public'],
    ['user', 'stopped admin', ...BLOCKED],
    ['user', 'stopped user', ...BLOCKED],
    ['paused user', 'paused user', 'full'],
    ['stopped user', 'platform', 'full'],
    ['stopped user', 'unsigned', 'public'],
  ])("the %s's account, read by %s → %s", async (...[target, by, outcome, code]) => {
    const res = await clients[by].get(`/accounts/${accounts[target]!.id}`);
    if (typeof outcome === 'number') return expectOutcome(res, outcome, code);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(accounts[target]!.id);
    expect('email' in res.body.data.attributes).toBe(outcome === 'full');
    expect('phone_number' in res.body.data.attributes).toBe(outcome === 'full');
    expect('address' in res.body.data.attributes).toBe(outcome === 'full');
  });
});

it('never answered a password or a password hash', () => {
  expect(recorded.length).toBeGreaterThan(100);
  expect(leaksOf(recorded, ['correct horse battery'])).toEqual([]);
});
