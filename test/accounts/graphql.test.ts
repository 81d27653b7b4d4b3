import { Keypair } from '@stellar/stellar-sdk';
import { appWithTwoPlatforms } from '../helpers/world';
import type { TestClient } from '../helpers/client';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { bearerFor, leaksOf, watchResponses } from '../blacklist/support';

const recorded = watchResponses();
const world = appWithTwoPlatforms();
let user: CreatedAccount;

const ACCOUNT_FIELDS = `id accountType accountTypeStr platformId firstName lastName avatarLink company email emailVerified phoneNumber
  phoneVerified country countryId cityId city region address currency locale flags brokerCities socialTokenA socialTokenB
  trustingPlatforms createdAt updatedAt`;
const PASSWORD = 'another long password';

beforeAll(async () => {
  user = await createAccount(world.t, world.platform, { attributes: { phone_number: '+995555000333', address: 'Hidden 5', region: 'Adjara' } });
});

const errorOf = (res: { body: { errors?: any[] } }) => res.body.errors?.[0]?.extensions;

describe('queries', () => {
  it('me: the full record of the caller, through a signature or a bearer token', async () => {
    const signed = await world.t.client.as(user.keypair).graphql(`{ me { ${ACCOUNT_FIELDS} } }`);
    expect(signed.body.errors).toBeUndefined();
    expect(signed.body.data.me).toMatchObject({
      id: user.id,
      accountType: 4,
      accountTypeStr: 'user',
      platformId: world.platform.publicKey(),
      email: user.email,
      emailVerified: false,
      phoneNumber: '+995555000333',
      phoneVerified: false,
      address: 'Hidden 5',
      region: 'Adjara',
      flags: 0,
      brokerCities: null,
      trustingPlatforms: null,
    });
    expect(signed.body.data.me.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const bearer = await world.t.client.graphql('{ me { id } }', {}, { bearer: await bearerFor(world.t, world.admin.id) });
    expect(bearer.body.data.me.id).toBe(world.admin.id);
    const anonymous = await world.t.client.graphql('{ me { id } }');
    expect(errorOf(anonymous)).toMatchObject({ code: 'unauthenticated', status: 401 });
  });

  it('account: full for the account and its staff, public (hidden fields null) for others', async () => {
    const q = 'query($id: String!) { account(id: $id) { id firstName email phoneNumber address emailVerified } }';
    for (const who of [user.keypair, world.admin.keypair, world.platform]) {
      const res = await world.t.client.as(who).graphql(q, { id: user.id });
      expect(res.body.data.account).toEqual({ id: user.id, firstName: 'Ann', email: user.email, phoneNumber: '+995555000333', address: 'Hidden 5', emailVerified: false });
    }
    for (const client of [world.t.client.as(world.otherAdmin.keypair), world.t.client.as(world.otherPlatform), world.t.client]) {
      const res = await client.graphql(q, { id: user.id });
      expect(res.body.data.account).toEqual({ id: user.id, firstName: 'Ann', email: null, phoneNumber: null, address: null, emailVerified: null });
    }
    const unknown = await world.t.client.graphql(q, { id: Keypair.random().publicKey() });
    expect(errorOf(unknown)).toMatchObject({ code: 'account_not_found', status: 404 });
  });

  it("accounts: staff list their platforms' accounts, filtered and paged", async () => {
    const q = 'query($p: String, $type: String, $limit: Int, $offset: Int) { accounts(platformId: $p, accountType: $type, limit: $limit, offset: $offset) { id accountTypeStr email } }';
    const all = await world.t.client.as(world.admin.keypair).graphql(q, { limit: 100 });
    const ids = all.body.data.accounts.map((a: any) => a.id);
    expect(ids).toEqual(expect.arrayContaining([world.platform.publicKey(), world.admin.id, user.id]));
    expect(ids).not.toContain(world.otherAdmin.id);
    expect(ids).not.toContain(world.t.master.publicKey());
    expect(all.body.data.accounts.find((a: any) => a.id === user.id).email).toBe(user.email);

    const admins = await world.t.client.as(world.platform).graphql(q, { p: world.platform.publicKey(), type: 'admin' });
    expect(admins.body.data.accounts).toEqual([{ id: world.admin.id, accountTypeStr: 'admin', email: world.admin.email }]);
    const second = await world.t.client.as(world.admin.keypair).graphql(q, { limit: 1, offset: 1 });
    expect(second.body.data.accounts.map((a: any) => a.id)).toEqual([ids[1]]);
  });

  it.each<[string, () => TestClient, () => Record<string, unknown>, string, number, string?]>([
    ['anonymous', () => world.t.client, () => ({}), 'unauthenticated', 401],
    ['a user', () => world.t.client.as(user.keypair), () => ({}), 'not_allowed', 403],
    ['staff of another platform asking for this one', () => world.t.client.as(world.otherAdmin.keypair), () => ({ p: world.platform.publicKey() }), 'not_allowed', 403],
    ['an unknown account type', () => world.t.client.as(world.admin.keypair), () => ({ type: 'master' }), 'invalid_field', 400, 'accountType'],
    ['a limit above 100', () => world.t.client.as(world.admin.keypair), () => ({ limit: 101 }), 'invalid_field', 400, 'limit'],
  ])('accounts refuses %s', async (...[, client, variables, code, status, field]) => {
    const res = await client().graphql('query($p: String, $type: String, $limit: Int) { accounts(platformId: $p, accountType: $type, limit: $limit) { id } }', variables());
    expect(errorOf(res)).toMatchObject({ code, status, ...(field ? { errors: [{ field }] } : {}) });
  });
});

describe('outbox', () => {
  const q = 'query($r: String) { outbox(recipient: $r) { id channel recipient subject body createdAt } }';

  it("shows staff the messages of their platform's accounts, newest first", async () => {
    const res = await world.t.client.as(world.admin.keypair).graphql(q, { r: user.email.toUpperCase() });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.outbox).toEqual([
      expect.objectContaining({ channel: 'email', recipient: user.email, subject: 'Confirm your email address', body: expect.stringMatching(/^Token: [A-Za-z0-9_-]{32}$/m) }),
    ]);
    const sms = await world.t.client.as(world.platform).graphql(q, { r: '+995555000333' });
    expect(sms.body.data.outbox).toEqual([expect.objectContaining({ channel: 'sms', body: expect.stringMatching(/^Token: \d{6}$/m) })]);
    const all = await world.t.client.as(world.platform).graphql(q, {});
    const ids = all.body.data.outbox.map((m: any) => Number(m.id));
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(all.body.data.outbox.map((m: any) => m.recipient)).not.toContain(world.otherAdmin.email);
  });

  it("shows another platform's staff none of them", async () => {
    const res = await world.t.client.as(world.otherAdmin.keypair).graphql(q, { r: user.email });
    expect(res.body.data.outbox).toEqual([]);
  });

  it.each([
    ['a user', () => world.t.client.as(user.keypair)],
    ['an anonymous caller', () => world.t.client],
  ])('answers %s with code forbidden', async (_, client) => {
    const res = await client().graphql(q, { r: user.email });
    expect(res.body.data).toBeNull();
    expect(errorOf(res)).toMatchObject({ code: 'forbidden', status: 403 });
  });
});

describe('mutations', () => {
  const create = `mutation($input: CreateAccountInput!) { createAccount(input: $input) { ${ACCOUNT_FIELDS} } }`;
  const input = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    accountType: 'user',
    platformId: world.platform.publicKey(),
    firstName: 'Gia',
    lastName: 'Beridze',
    email: `gql-${id.slice(1, 10).toLowerCase()}@example.com`,
    password: PASSWORD,
    ...extra,
  });

  it('createAccount: self-registration signed by the new key', async () => {
    const key = Keypair.random();
    const res = await world.t.client.as(key).graphql(create, { input: input(key.publicKey(), { phoneNumber: '+995555000444', currency: 'GEL' }) });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createAccount).toMatchObject({ id: key.publicKey(), accountType: 4, emailVerified: false, phoneNumber: '+995555000444', currency: 'GEL' });
    const rest = await world.t.client.get(`/accounts/${key.publicKey()}`);
    expect(rest.body.data.attributes.first_name).toBe('Gia');
  });

  it('createAccount: a broker by platform staff, with its broker fields', async () => {
    const key = Keypair.random();
    const res = await world.t.client.as(world.admin.keypair).graphql(create, {
      input: input(key.publicKey(), { accountType: 'broker', brokerCities: ['Kutaisi'], socialTokenA: 'tg', countryId: 7 }),
    });
    expect(res.body.data.createAccount).toMatchObject({ accountTypeStr: 'broker', brokerCities: ['Kutaisi'], socialTokenA: 'tg', socialTokenB: null, countryId: 7 });
  });

  it('createAccount: the REST errors, with the faulty input fields', async () => {
    const key = Keypair.random();
    const denied = await world.t.client.as(user.keypair).graphql(create, { input: input(key.publicKey(), { accountType: 'admin' }) });
    expect(errorOf(denied)).toMatchObject({ code: 'not_allowed', status: 403 });
    const unsigned = await world.t.client.graphql(create, { input: input(key.publicKey()) });
    expect(errorOf(unsigned)).toMatchObject({ code: 'unauthenticated', status: 401 });
    const bad = await world.t.client.as(key).graphql(create, { input: input(key.publicKey(), { firstName: 'x'.repeat(31), email: 'nope', accountType: 'broker' }) });
    expect(errorOf(bad).code).toBe('invalid_field');
    expect(errorOf(bad).errors.map((e: any) => e.field).sort()).toEqual(['brokerCities', 'email', 'firstName']);
    const taken = await world.t.client.as(world.admin.keypair).graphql(create, { input: input(user.id) });
    expect(errorOf(taken)).toMatchObject({ code: 'account_exists', status: 409 });
  });

  it('a signature by an unknown key reaches createAccount only', async () => {
    const res = await world.t.client.as(Keypair.random()).graphql('{ ping { currentTime } }');
    expect(res.status).toBe(401);
    expect(errorOf(res)).toMatchObject({ code: 'signature_invalid', status: 401 });
  });

  it('a signature by an unknown key is refused when createAccount shares the operation with another field', async () => {
    const key = Keypair.random();
    const both = `mutation($input: CreateAccountInput!) { createAccount(input: $input) { id } markNotificationsRead(ids: []) }`;
    const res = await world.t.client.as(key).graphql(both, { input: input(key.publicKey()) });
    expect(res.status).toBe(401);
    expect(errorOf(res)).toMatchObject({ code: 'signature_invalid', status: 401 });
    expect((await world.t.client.get(`/accounts/${key.publicKey()}`)).status).toBe(404);
  });

  it('a signature by an unknown key is refused by a REST operation that needs a caller, as an invalid signature', async () => {
    const res = await world.t.client.as(Keypair.random()).get('/notifications');
    expect(res.status).toBe(401);
    expect(res.body.errors[0]).toMatchObject({ code: 'signature_invalid', status: '401' });
  });

  it('updateAccount: the account itself or its staff; others refused', async () => {
    const update = 'mutation($id: String!, $input: UpdateAccountInput!) { updateAccount(id: $id, input: $input) { id city company locale } }';
    const own = await world.t.client.as(user.keypair).graphql(update, { id: user.id, input: { city: 'Gori', locale: 'uk' } });
    expect(own.body.data.updateAccount).toEqual({ id: user.id, city: 'Gori', company: null, locale: 'uk' });
    const staff = await world.t.client.as(world.platform).graphql(update, { id: user.id, input: { company: 'Staff Co', city: null } });
    expect(staff.body.data.updateAccount).toEqual({ id: user.id, city: 'Gori', company: 'Staff Co', locale: 'uk' });
    const denied = await world.t.client.as(world.otherAdmin.keypair).graphql(update, { id: user.id, input: { company: 'X' } });
    expect(errorOf(denied)).toMatchObject({ code: 'not_allowed', status: 403 });
    const bad = await world.t.client.as(user.keypair).graphql(update, { id: user.id, input: { firstName: '', currency: 'XYZ' } });
    expect(errorOf(bad).errors.map((e: any) => e.field).sort()).toEqual(['currency', 'firstName']);
    const unknown = await world.t.client.as(world.platform).graphql(update, { id: Keypair.random().publicKey(), input: { city: 'X' } });
    expect(errorOf(unknown)).toMatchObject({ code: 'account_not_found', status: 404 });
  });

  it('createPlatform: the master seed creates a verified platform; another seed is refused', async () => {
    const q = 'mutation($id: String!, $seed: String!) { createPlatform(id: $id, seed: $seed, firstName: "Plat", country: "GEO") { id accountType platformId emailVerified phoneVerified country } }';
    const id = Keypair.random().publicKey();
    const res = await world.t.client.graphql(q, { id, seed: world.t.master.secret() });
    expect(res.body.data.createPlatform).toEqual({ id, accountType: 2, platformId: id, emailVerified: true, phoneVerified: true, country: 'GEO' });
    const refused = await world.t.client.graphql(q, { id: Keypair.random().publicKey(), seed: Keypair.random().secret() });
    expect(errorOf(refused)).toMatchObject({ code: 'seed_not_authorized', status: 403 });
    const again = await world.t.client.graphql(q, { id, seed: world.t.master.secret() });
    expect(errorOf(again)).toMatchObject({ code: 'account_exists', status: 409 });
  });

  it('verifyEmail, verifyPhone and resendVerification use the tokens from the outbox', async () => {
    const target = await createAccount(world.t, world.platform, { attributes: { phone_number: '+995555000555' } });
    const tokenFor = async (recipient: string) => {
      const res = await world.t.client.as(world.platform).graphql('query($r: String) { outbox(recipient: $r) { body } }', { r: recipient });
      return /^Token: (\S+)$/m.exec(res.body.data.outbox[0].body)![1];
    };
    const verify = (op: 'verifyEmail' | 'verifyPhone', token: string) =>
      world.t.client.graphql(`mutation($id: String!, $token: String!) { ${op}(accountId: $id, token: $token) { id emailVerified phoneVerified email address } }`, { id: target.id, token });

    const wrong = await verify('verifyEmail', 'not-the-token');
    expect(errorOf(wrong)).toMatchObject({ code: 'invalid_token', status: 401 });
    const email = await verify('verifyEmail', await tokenFor(target.email));
    expect(email.body.data.verifyEmail).toEqual({ id: target.id, emailVerified: true, phoneVerified: false, email: target.email, address: null });

    const resend = 'mutation($id: String!, $r: [String!]!) { resendVerification(accountId: $id, receivers: $r) }';
    const firstPhoneToken = await tokenFor('+995555000555');
    expect((await world.t.client.graphql(resend, { id: target.id, r: ['phone'] })).body.data).toEqual({ resendVerification: true });
    const newPhoneToken = await tokenFor('+995555000555');
    expect(newPhoneToken).not.toBe(firstPhoneToken);
    expect(errorOf(await verify('verifyPhone', firstPhoneToken))).toMatchObject({ code: 'invalid_token' });
    const phone = await verify('verifyPhone', newPhoneToken);
    expect(phone.body.data.verifyPhone).toMatchObject({ emailVerified: true, phoneVerified: true });

    const tooSoon = await world.t.client.graphql(resend, { id: target.id, r: ['phone'] });
    expect(errorOf(tooSoon)).toMatchObject({ code: 'resend_too_soon', status: 429 });
    const badReceiver = await world.t.client.graphql(resend, { id: target.id, r: ['fax'] });
    expect(errorOf(badReceiver)).toMatchObject({ code: 'invalid_field', status: 400, errors: [{ field: 'receivers' }] });
    const unknown = await world.t.client.graphql(resend, { id: Keypair.random().publicKey(), r: ['email'] });
    expect(errorOf(unknown)).toMatchObject({ code: 'account_not_found', status: 404 });
  });
});

it('never answered a password or a password hash', () => {
  expect(recorded.length).toBeGreaterThan(40);
  expect(leaksOf(recorded, ['correct horse battery', PASSWORD])).toEqual([]);
});
