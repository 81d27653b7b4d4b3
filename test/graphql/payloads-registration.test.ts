import { Keypair } from '@stellar/stellar-sdk';
import { OutboxMessage } from '../../src/modules/outbox/outbox.entity';
import { absentAccountId, createAccount, lastToken } from '../helpers/factories';
import { appWithTwoPlatforms } from '../helpers/world';
import { expectNoSecrets, signIn } from '../credentials/support';

/** registerAccount, registerPlatform and sendVerification: the payload twins of createAccount, createPlatform and resendVerification. */
const world = appWithTwoPlatforms();

const REGISTER_ACCOUNT = `mutation($input: RegisterAccountInput!) { registerAccount(input: $input) { account { id accountTypeStr platformId email emailVerified } userErrors { code field message } } }`;
const REGISTER_PLATFORM = `mutation($input: RegisterPlatformInput!) { registerPlatform(input: $input) { account { id accountTypeStr platformId firstName } userErrors { code field } } }`;
const SEND = `mutation($input: SendVerificationInput!) { sendVerification(input: $input) { accountId receivers userErrors { code field } } }`;

const PASSWORD = 'registered horse battery';
let sequence = 0;
const accountInput = (keypair: Keypair, platform: Keypair, extra: Record<string, unknown> = {}) => ({
  id: keypair.publicKey(),
  accountType: 'user',
  platformId: platform.publicKey(),
  firstName: 'Ann',
  lastName: 'Lee',
  email: `registered-${Date.now().toString(36)}-${sequence++}@example.com`,
  password: PASSWORD,
  ...extra,
});
const restAccount = (input: ReturnType<typeof accountInput>) => ({
  data: { type: 'accounts', id: input.id, attributes: { account_type: input.accountType, platform_id: input.platformId, first_name: 'Ann', last_name: 'Lee', email: input.email, password: input.password } },
});

/** The stored rows of a key: what idempotency keeps of a call, to be searched for secrets. */
const keyRows = async (key: string) =>
  (await world.t.orm.em.fork().getConnection().execute(`select account_id, operation, fingerprint, result::text as result from idempotency_keys where key = ?`, [key])) as {
    account_id: string;
    operation: string;
    fingerprint: string;
    result: string | null;
  }[];

describe('registerAccount', () => {
  it('registers a user signed by its own key, answers no password, and answers a retry under its key with the first result', async () => {
    const keypair = Keypair.random();
    const input = accountInput(keypair, world.platform, { idempotencyKey: 'register-1' });
    const first = await world.t.client.as(keypair).graphql(REGISTER_ACCOUNT, { input });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.registerAccount).toEqual({
      account: { id: keypair.publicKey(), accountTypeStr: 'user', platformId: world.platform.publicKey(), email: input.email, emailVerified: false },
      userErrors: [],
    });
    expectNoSecrets(first, PASSWORD);

    // The retry is signed by the key that is an account now, and sends another password: it is the same call.
    const again = await world.t.client.as(keypair).graphql(REGISTER_ACCOUNT, { input: { ...input, password: 'another password here' } });
    expect(again.body.data.registerAccount).toEqual(first.body.data.registerAccount);
    expect((await signIn(world.t, { account_id: keypair.publicKey(), password: PASSWORD })).status).toBe(201);
    expect((await signIn(world.t, { account_id: keypair.publicKey(), password: 'another password here' })).status).toBe(401);

    const rows = await keyRows('register-1');
    expect(rows).toEqual([expect.objectContaining({ account_id: keypair.publicKey(), operation: 'registerAccount' })]);
    expect(JSON.stringify(rows)).not.toContain(PASSWORD);

    // Without the key the same registration is refused as the account it made exists.
    const exists = await world.t.client.as(keypair).graphql(REGISTER_ACCOUNT, { input: { ...input, idempotencyKey: null } });
    expect(exists.body.data.registerAccount).toEqual({ account: null, userErrors: [{ code: 'ACCOUNT_EXISTS', field: 'id', message: 'an account with this id exists' }] });
  });

  it("refuses another platform's staff in userErrors, as POST /accounts refuses them, and creates nothing", async () => {
    const keypair = Keypair.random();
    const input = accountInput(keypair, world.platform, { accountType: 'admin' });
    const res = await world.t.client.as(world.otherAdmin.keypair).graphql(REGISTER_ACCOUNT, { input });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.registerAccount).toEqual({
      account: null,
      userErrors: [{ code: 'NOT_ALLOWED', field: null, message: 'the signing account may not create admin accounts on this platform' }],
    });
    const rest = await world.t.client.as(world.otherAdmin.keypair).post('/accounts', restAccount(input));
    expect(rest.status).toBe(403);
    expect(rest.body.errors[0]).toMatchObject({ code: 'not_allowed', detail: res.body.data.registerAccount.userErrors[0].message });
    const account = await world.t.client.as(world.admin.keypair).graphql('query($id: String!) { account(id: $id) { id } }', { id: keypair.publicKey() });
    expect(account.body.data.account).toBeNull();
  });

  it('names the faulty field, and keeps the sibling that succeeded', async () => {
    const good = accountInput(Keypair.random(), world.platform, { accountType: 'admin' });
    const taken = accountInput(Keypair.random(), world.platform, { accountType: 'admin', email: good.email.toUpperCase() });
    const res = await world.t.client.as(world.platform).graphql(
      `mutation($a: RegisterAccountInput!, $b: RegisterAccountInput!, $c: RegisterAccountInput!) {
        a: registerAccount(input: $a) { account { id } userErrors { code field } }
        b: registerAccount(input: $b) { account { id } userErrors { code field } }
        c: registerAccount(input: $c) { account { id } userErrors { code field } }
      }`,
      { a: good, b: taken, c: { ...accountInput(Keypair.random(), world.platform), platformId: Keypair.random().publicKey() } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      a: { account: { id: good.id }, userErrors: [] },
      b: { account: null, userErrors: [{ code: 'EMAIL_TAKEN', field: 'email' }] },
      c: { account: null, userErrors: [{ code: 'PLATFORM_NOT_FOUND', field: 'platformId' }] },
    });
    const short = await world.t.client.as(world.platform).graphql(REGISTER_ACCOUNT, { input: accountInput(Keypair.random(), world.platform, { password: 'short' }) });
    expect(short.body.data.registerAccount.userErrors).toEqual([expect.objectContaining({ code: 'INVALID_FIELD', field: 'password' })]);
  });

  it('stays a 401 unsigned, as createAccount does', async () => {
    const res = await world.t.client.graphql(REGISTER_ACCOUNT, { input: accountInput(Keypair.random(), world.platform) });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
  });
});

describe('registerPlatform', () => {
  it('registers a platform with the master seed and answers no seed; a seed not the master\'s is refused in userErrors', async () => {
    const seed = world.t.master.secret();
    const platform = Keypair.random();
    const res = await world.t.client.graphql(REGISTER_PLATFORM, { input: { id: platform.publicKey(), seed, firstName: 'Registered' } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.registerPlatform).toEqual({
      account: { id: platform.publicKey(), accountTypeStr: 'platform', platformId: platform.publicKey(), firstName: 'Registered' },
      userErrors: [],
    });
    expectNoSecrets(res, seed);

    const stranger = Keypair.random();
    const refused = await world.t.client.graphql(REGISTER_PLATFORM, { input: { id: Keypair.random().publicKey(), seed: stranger.secret() } });
    expect(refused.body.data.registerPlatform).toEqual({ account: null, userErrors: [{ code: 'SEED_NOT_AUTHORIZED', field: null }] });
    const rest = await world.t.client.post('/platforms', { data: { type: 'accounts', id: Keypair.random().publicKey(), attributes: { seed: stranger.secret() } } });
    expect(rest.status).toBe(403);
    expect(rest.body.errors[0].code).toBe('seed_not_authorized');
    expectNoSecrets(refused, stranger.secret());

    const malformed = await world.t.client.graphql(REGISTER_PLATFORM, { input: { id: Keypair.random().publicKey(), seed: 'not a seed' } });
    expect(malformed.body.data.registerPlatform).toEqual({ account: null, userErrors: [{ code: 'INVALID_SEED', field: 'seed' }] });
    const taken = await world.t.client.graphql(REGISTER_PLATFORM, { input: { id: platform.publicKey(), seed } });
    expect(taken.body.data.registerPlatform).toEqual({ account: null, userErrors: [{ code: 'ACCOUNT_EXISTS', field: 'id' }] });
  });

  it('keeps a signed call\'s key without its seed, and refuses a key no account signs', async () => {
    const seed = world.t.master.secret();
    const platform = Keypair.random();
    const input = { id: platform.publicKey(), seed, idempotencyKey: 'platform-1' };
    const unsigned = await world.t.client.graphql(REGISTER_PLATFORM, { input });
    expect(unsigned.body.data.registerPlatform).toEqual({ account: null, userErrors: [{ code: 'INVALID_FIELD', field: 'idempotencyKey' }] });

    const first = await world.t.client.as(world.admin.keypair).graphql(REGISTER_PLATFORM, { input });
    expect(first.body.data.registerPlatform.account.id).toBe(platform.publicKey());
    const again = await world.t.client.as(world.admin.keypair).graphql(REGISTER_PLATFORM, { input });
    expect(again.body.data).toEqual(first.body.data);
    const rows = await keyRows('platform-1');
    expect(rows).toEqual([expect.objectContaining({ account_id: world.admin.id, operation: 'registerPlatform' })]);
    expect(JSON.stringify(rows)).not.toContain(seed);
  });
});

describe('sendVerification', () => {
  it('sends a new token and answers the channels, never the token; a retry under its key sends nothing more', async () => {
    const user = await createAccount(world.t, world.platform);
    const count = () => world.t.orm.em.fork().count(OutboxMessage, { recipient: user.email });
    const before = await count();
    const input = { accountId: user.id, receivers: ['email', 'email'], idempotencyKey: 'send-1' };
    const res = await world.t.client.as(user.keypair).graphql(SEND, { input });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.sendVerification).toEqual({ accountId: user.id, receivers: ['email'], userErrors: [] });
    expect(await count()).toBe(before + 1);
    const token = await lastToken(world.t.orm, user.email);
    expect(res.text).not.toContain(token);

    // Inside the minute a new send is refused (429); the keyed retry is answered the first result.
    const again = await world.t.client.as(user.keypair).graphql(SEND, { input });
    expect(again.body.data).toEqual(res.body.data);
    expect(await count()).toBe(before + 1);
    const rows = await keyRows('send-1');
    expect(JSON.stringify(rows)).not.toContain(token);
    const tooSoon = await world.t.client.as(user.keypair).graphql(SEND, { input: { accountId: user.id, receivers: ['email'] } });
    expect(tooSoon.body.errors[0].extensions).toMatchObject({ code: 'resend_too_soon', status: 429 });
  });

  it('answers an unknown account and a missing phone in userErrors, with the codes GET /accounts/verification/resend answers', async () => {
    const user = await createAccount(world.t, world.platform);
    const unknown = absentAccountId(user.id);
    const res = await world.t.client.graphql(
      `mutation($a: SendVerificationInput!, $b: SendVerificationInput!, $c: SendVerificationInput!) {
        a: sendVerification(input: $a) { accountId receivers userErrors { code field } }
        b: sendVerification(input: $b) { accountId receivers userErrors { code field } }
        c: sendVerification(input: $c) { accountId receivers userErrors { code field } }
      }`,
      { a: { accountId: unknown, receivers: ['email'] }, b: { accountId: user.id, receivers: ['phone'] }, c: { accountId: user.id, receivers: ['fax'] } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      a: { accountId: null, receivers: null, userErrors: [{ code: 'ACCOUNT_NOT_FOUND', field: 'accountId' }] },
      b: { accountId: null, receivers: null, userErrors: [{ code: 'NO_PHONE_NUMBER', field: 'receivers' }] },
      c: { accountId: null, receivers: null, userErrors: [{ code: 'INVALID_FIELD', field: 'receivers' }] },
    });
    const rest = await world.t.client.get(`/accounts/verification/resend?account_id=${unknown}&receiver=email`);
    expect(rest.body.errors[0].code).toBe('account_not_found');
    const noPhone = await world.t.client.get(`/accounts/verification/resend?account_id=${user.id}&receiver=phone`);
    expect(noPhone.body.errors[0].code).toBe('no_phone_number');
  });
});
