import { Keypair } from '@stellar/stellar-sdk';
import { Authenticator } from '../../src/auth/authenticate';
import { DomainError } from '../../src/core/errors';
import { requireActive } from '../../src/core/policies';
import { appWithTwoPlatforms } from '../helpers/world';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { bearerFor, blacklist, leaksOf, watchResponses } from './support';

const recorded = watchResponses();
const world = appWithTwoPlatforms();
let user: CreatedAccount;

const putBody = (id: unknown, attributes: Record<string, unknown> = { state: 'paused' }, type = 'accounts') => ({
  data: { type, id, attributes },
});

beforeAll(async () => {
  user = await createAccount(world.t, world.platform);
});

describe('PUT /blacklist', () => {
  it('lets the platform pause an account and answers the entry', async () => {
    const target = await createAccount(world.t, world.platform);
    const res = await world.t.client.as(world.platform).put('/blacklist', putBody(target.id));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/vnd\.api\+json/);
    expect(res.body).toEqual({ data: { type: 'accounts', id: target.id, attributes: { state: 'paused' } } });
  });

  it('changes the state when put again', async () => {
    const target = await createAccount(world.t, world.platform);
    await blacklist(world.t, world.admin.keypair, target.id, 'paused');
    const res = await world.t.client.as(world.admin.keypair).put('/blacklist', putBody(target.id, { state: 'stopped' }));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.state).toBe('stopped');
    const list = await world.t.client.as(world.platform).get('/blacklist');
    expect(list.body.data.filter((e: any) => e.id === target.id)).toEqual([{ type: 'accounts', id: target.id, attributes: { state: 'stopped' } }]);
  });

  it('answers 404 for an unknown account', async () => {
    const res = await world.t.client.as(world.platform).put('/blacklist', putBody(Keypair.random().publicKey()));
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ code: 'account_not_found', source: { pointer: '/data/id' } });
  });

  it.each([
    ['an unknown state', putBody('SELF', { state: 'banned' }), 'invalid_field', '/data/attributes/state'],
    ['no state', putBody('SELF', {}), 'missing_field', '/data/attributes/state'],
    ['no id', { data: { type: 'accounts', attributes: { state: 'paused' } } }, 'missing_field', '/data/id'],
    ['an id that is no account id', putBody('nope'), 'invalid_field', '/data/id'],
    ['another type', putBody('SELF', { state: 'paused' }, 'users'), 'invalid_field', '/data/type'],
  ])('answers 400 to %s', async (_, body: any, code, pointer) => {
    if (body.data.id === 'SELF') body.data.id = user.id;
    const res = await world.t.client.as(world.platform).put('/blacklist', body);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code, source: { pointer } });
  });

  it('answers 401 without a signature', async () => {
    const res = await world.t.client.put('/blacklist', putBody(user.id));
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthenticated');
  });

  it.each([
    ['a user of the platform', () => user.keypair, () => world.admin.id],
    ['an admin of another platform', () => world.otherAdmin.keypair, () => user.id],
    ['another platform', () => world.otherPlatform, () => user.id],
    ['an admin, for its own platform account', () => world.admin.keypair, () => world.platform.publicKey()],
  ])('answers 403 not_allowed to %s', async (_, caller, target) => {
    const res = await world.t.client.as(caller()).put('/blacklist', putBody(target()));
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('not_allowed');
  });

  it.each([
    ['a platform', () => world.platform],
    ['an admin', () => world.admin.keypair],
  ])('refuses %s blacklisting itself (400 cannot_blacklist_self)', async (_, caller) => {
    const res = await world.t.client.as(caller()).put('/blacklist', putBody(caller().publicKey()));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('cannot_blacklist_self');
  });
});

describe('GET /blacklist', () => {
  it("lists only the caller's platforms' accounts, with their states", async () => {
    const mine = await createAccount(world.t, world.platform);
    const theirs = await createAccount(world.t, world.otherPlatform);
    await blacklist(world.t, world.platform, mine.id, 'stopped');
    await blacklist(world.t, world.otherPlatform, theirs.id, 'paused');

    const res = await world.t.client.as(world.admin.keypair).get('/blacklist');
    expect(res.status).toBe(200);
    expect(res.body.data).toContainEqual({ type: 'accounts', id: mine.id, attributes: { state: 'stopped' } });
    expect(res.body.data.map((e: any) => e.id)).not.toContain(theirs.id);

    const theirList = await world.t.client.as(world.otherAdmin.keypair).get('/blacklist');
    expect(theirList.body.data).toEqual([{ type: 'accounts', id: theirs.id, attributes: { state: 'paused' } }]);
  });

  it('answers 403 to a caller who is staff of no platform and 401 unsigned', async () => {
    const forbidden = await world.t.client.as(user.keypair).get('/blacklist');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.errors[0].code).toBe('not_allowed');
    const unsigned = await world.t.client.get('/blacklist');
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.errors[0].code).toBe('unauthenticated');
  });
});

describe('DELETE /blacklist/{account-id}', () => {
  it('takes the account off the list (204), then answers 404 not_blacklisted', async () => {
    const target = await createAccount(world.t, world.platform);
    await blacklist(world.t, world.platform, target.id, 'paused');
    const res = await world.t.client.as(world.admin.keypair).delete(`/blacklist/${target.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const list = await world.t.client.as(world.platform).get('/blacklist');
    expect(list.body.data.map((e: any) => e.id)).not.toContain(target.id);
    const again = await world.t.client.as(world.admin.keypair).delete(`/blacklist/${target.id}`);
    expect(again.status).toBe(404);
    expect(again.body.errors[0].code).toBe('not_blacklisted');
  });

  it('answers 404 not_blacklisted for an unknown account', async () => {
    const res = await world.t.client.as(world.platform).delete(`/blacklist/${Keypair.random().publicKey()}`);
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('not_blacklisted');
  });

  it('answers 401 unsigned, 403 to another platform, 400 to an admin lifting its own pause', async () => {
    const pausedAdmin = await createAccount(world.t, world.platform, { type: 'admin' });
    await blacklist(world.t, world.platform, pausedAdmin.id, 'paused');
    expect((await world.t.client.delete(`/blacklist/${pausedAdmin.id}`)).status).toBe(401);
    const foreign = await world.t.client.as(world.otherPlatform).delete(`/blacklist/${pausedAdmin.id}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors[0].code).toBe('not_allowed');
    const self = await world.t.client.as(pausedAdmin.keypair).delete(`/blacklist/${pausedAdmin.id}`);
    expect(self.status).toBe(400);
    expect(self.body.errors[0].code).toBe('cannot_blacklist_self');
    const list = await world.t.client.as(world.platform).get('/blacklist');
    expect(list.body.data).toContainEqual({ type: 'accounts', id: pausedAdmin.id, attributes: { state: 'paused' } });
  });
});

describe('effects', () => {
  it('blocks a stopped account at once: its earlier JWT and its signatures get 403 account_blocked', async () => {
    const target = await createAccount(world.t, world.platform);
    const token = await bearerFor(world.t, target.id);
    expect((await world.t.client.get(`/accounts/${target.id}`, { bearer: token })).status).toBe(200);

    await blacklist(world.t, world.platform, target.id, 'stopped');
    const attempts = [
      await world.t.client.get(`/accounts/${target.id}`, { bearer: token }),
      await world.t.client.as(target.keypair).get(`/accounts/${target.id}`),
      await world.t.client.as(target.keypair).patch(`/accounts/${target.id}`, { data: { type: 'accounts', id: target.id, attributes: { city: 'Batumi' } } }),
      await world.t.client.as(target.keypair).get('/'),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('account_blocked');
    }
    const gql = await world.t.client.graphql('{ me { id } }', {}, { bearer: token });
    expect(gql.status).toBe(403);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'account_blocked', status: 403 });

    await world.t.client.as(world.platform).delete(`/blacklist/${target.id}`);
    expect((await world.t.client.get(`/accounts/${target.id}`, { bearer: token })).status).toBe(200);
  });

  it('lets a paused account sign in and read, and requireActive refuses it', async () => {
    const target = await createAccount(world.t, world.platform);
    await blacklist(world.t, world.platform, target.id, 'paused');
    const token = await bearerFor(world.t, target.id);

    const own = await world.t.client.as(target.keypair).get(`/accounts/${target.id}`);
    expect(own.status).toBe(200);
    expect(own.body.data.attributes.email).toBe(target.email);
    const me = await world.t.client.graphql('{ me { id email } }', {}, { bearer: token });
    expect(me.body).toEqual({ data: { me: { id: target.id, email: target.email } } });

    const authenticator = new Authenticator(world.t.app.jwt, { windowSeconds: 300, legacy: false });
    const callerOf = async (bearer: string) =>
      (await authenticator.authenticate(world.t.orm.em.fork(), { method: 'GET', target: '/', header: (n) => (n === 'authorization' ? `Bearer ${bearer}` : undefined), body: null })).caller!;
    const paused = await callerOf(token);
    expect(paused.blacklist).toBe('paused');
    let refused: unknown;
    try {
      requireActive(paused);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'account_paused', status: 403 });

    await world.t.client.as(world.platform).delete(`/blacklist/${target.id}`);
    const active = await callerOf(token);
    expect(active.blacklist).toBeNull();
    expect(() => requireActive(active)).not.toThrow();
  });
});

describe('GraphQL', () => {
  const put = 'mutation($id: String!, $state: String!) { blacklistAccount(accountId: $id, state: $state) { accountId state } }';

  it('blacklists, lists and unblacklists through the same service', async () => {
    const target = await createAccount(world.t, world.platform);
    const staff = world.t.client.as(world.admin.keypair);
    const added = await staff.graphql(put, { id: target.id, state: 'paused' });
    expect(added.body).toEqual({ data: { blacklistAccount: { accountId: target.id, state: 'paused' } } });
    const listed = await staff.graphql('{ blacklist { accountId state } }');
    expect(listed.body.data.blacklist).toContainEqual({ accountId: target.id, state: 'paused' });
    const removed = await staff.graphql('mutation($id: String!) { unblacklistAccount(accountId: $id) }', { id: target.id });
    expect(removed.body).toEqual({ data: { unblacklistAccount: true } });
    const gone = await staff.graphql('mutation($id: String!) { unblacklistAccount(accountId: $id) }', { id: target.id });
    expect(gone.body.errors[0].extensions).toMatchObject({ code: 'not_blacklisted', status: 404 });
  });

  it('answers the REST errors with extensions.code and status', async () => {
    const denied = await world.t.client.as(user.keypair).graphql(put, { id: world.admin.id, state: 'paused' });
    expect(denied.body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
    const anonymous = await world.t.client.graphql('{ blacklist { accountId } }');
    expect(anonymous.body.errors[0].extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
    const bad = await world.t.client.as(world.platform).graphql(put, { id: user.id, state: 'banned' });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400, errors: [{ field: 'state' }] });
    const badId = await world.t.client.as(world.platform).graphql(put, { id: 'nope', state: 'paused' });
    expect(badId.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', errors: [{ field: 'accountId' }] });
    const self = await world.t.client.as(world.platform).graphql(put, { id: world.platform.publicKey(), state: 'paused' });
    expect(self.body.errors[0].extensions).toMatchObject({ code: 'cannot_blacklist_self', status: 400 });
  });
});

it('never answered a password or a password hash', () => {
  expect(recorded.length).toBeGreaterThan(30);
  expect(leaksOf(recorded, ['correct horse battery'])).toEqual([]);
});
