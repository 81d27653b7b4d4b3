import { Keypair } from '@stellar/stellar-sdk';
import { AccountType, createAccount, insertAccount, lastToken, type CreatedAccount } from '../helpers/factories';
import { appWithTwoPlatforms } from '../helpers/world';
import { expectNoSecrets, signIn } from '../credentials/support';

/** addCredentials, updatePassword, startRecovery and confirmRecovery: the payload twins of createCredentials, changePassword, requestRecovery and approveRecovery. */
const world = appWithTwoPlatforms();

const ADD = `mutation($input: AddCredentialsInput!) { addCredentials(input: $input) { credentials { accountId } userErrors { code field message } } }`;
const UPDATE = `mutation($input: UpdatePasswordInput!) { updatePassword(input: $input) { credentials { accountId } userErrors { code field } } }`;
const START = `mutation($input: StartRecoveryInput!) { startRecovery(input: $input) { sent userErrors { code field } } }`;
const CONFIRM = `mutation($input: ConfirmRecoveryInput!) { confirmRecovery(input: $input) { accountId userErrors { code field } } }`;

const keyRowsText = async (key: string) =>
  JSON.stringify(await world.t.orm.em.fork().getConnection().execute(`select account_id, operation, fingerprint, result::text as result from idempotency_keys where key = ?`, [key]));

const bearerOf = async (accountId: string, password: string): Promise<string> => (await signIn(world.t, { account_id: accountId, password })).body.data.attributes.token;

async function verifiedUser(): Promise<CreatedAccount> {
  const user = await createAccount(world.t, world.platform);
  const res = await world.t.client.patch('/accounts/verification/email', { data: { type: 'accounts', id: user.id, attributes: { token: await lastToken(world.t.orm, user.email) } } });
  expect(res.status).toBe(200);
  return user;
}

describe('addCredentials', () => {
  it('sets the first password of the signing account, never answers or keeps it, and answers a keyed retry with the first result', async () => {
    const account = await insertAccount(world.t.orm, AccountType.User, world.platform.publicKey());
    const input = { accountId: account.publicKey(), password: 'first real password', idempotencyKey: 'credentials-1' };
    const res = await world.t.client.as(account).graphql(ADD, { input });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.addCredentials).toEqual({ credentials: { accountId: account.publicKey() }, userErrors: [] });
    expectNoSecrets(res, input.password);

    const again = await world.t.client.as(account).graphql(ADD, { input: { ...input, password: 'second real password' } });
    expect(again.body.data).toEqual(res.body.data);
    expect((await signIn(world.t, { account_id: account.publicKey(), password: input.password })).status).toBe(201);
    expect((await signIn(world.t, { account_id: account.publicKey(), password: 'second real password' })).status).toBe(401);
    const stored = await keyRowsText('credentials-1');
    expect(stored).toContain('addCredentials');
    expect(stored).not.toContain('real password');

    const exists = await world.t.client.as(account).graphql(ADD, { input: { accountId: account.publicKey(), password: 'third real password' } });
    expect(exists.body.data.addCredentials).toEqual({ credentials: null, userErrors: [{ code: 'CREDENTIALS_EXIST', field: 'accountId', message: 'credentials for this account id exist' }] });
  });

  it("refuses another platform's staff in userErrors, as PUT /credentials refuses them, and sets nothing", async () => {
    const account = await insertAccount(world.t.orm, AccountType.User, world.platform.publicKey());
    const res = await world.t.client.as(world.otherAdmin.keypair).graphql(ADD, { input: { accountId: account.publicKey(), password: 'an intruder password' } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.addCredentials).toEqual({ credentials: null, userErrors: [{ code: 'NOT_ALLOWED', field: null, message: 'credentials are created by the account itself' }] });
    const rest = await world.t.client.as(world.otherAdmin.keypair).put('/credentials', { data: { type: 'credentials', id: account.publicKey(), attributes: { password: 'an intruder password' } } });
    expect(rest.status).toBe(403);
    expect(rest.body.errors[0].code).toBe('not_allowed');
    expect((await signIn(world.t, { account_id: account.publicKey(), password: 'an intruder password' })).status).toBe(401);

    const short = await world.t.client.as(account).graphql(ADD, { input: { accountId: account.publicKey(), password: 'short' } });
    expect(short.body.data.addCredentials.userErrors).toEqual([expect.objectContaining({ code: 'INVALID_FIELD', field: 'password' })]);
    const unknown = await world.t.client.as(account).graphql(ADD, { input: { accountId: Keypair.random().publicKey(), password: 'long enough password' } });
    expect(unknown.body.data.addCredentials.userErrors).toEqual([expect.objectContaining({ code: 'ACCOUNT_NOT_FOUND', field: 'accountId' })]);
  });
});

describe('updatePassword', () => {
  it('changes the password with a bearer token; a keyed retry, its old password stale and its new one another, is answered the first result', async () => {
    const user = await createAccount(world.t, world.platform);
    const bearer = await bearerOf(user.id, user.password);
    const input = { oldPassword: user.password, newPassword: 'payload new password', idempotencyKey: 'password-1' };
    const res = await world.t.client.graphql(UPDATE, { input }, { bearer });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updatePassword).toEqual({ credentials: { accountId: user.id }, userErrors: [] });
    expectNoSecrets(res, user.password, input.newPassword);
    expect((await signIn(world.t, { account_id: user.id, password: input.newPassword })).status).toBe(201);

    const again = await world.t.client.graphql(UPDATE, { input: { ...input, newPassword: 'a retried new password' } }, { bearer });
    expect(again.body.data).toEqual(res.body.data);
    expect((await signIn(world.t, { account_id: user.id, password: 'a retried new password' })).status).toBe(401);
    const stored = await keyRowsText('password-1');
    expect(stored).toContain('updatePassword');
    expect(stored).not.toContain(user.password);
    expect(stored).not.toContain(input.newPassword);
    // Without the key the stale old password is what it is: wrong, a 401 as for changePassword.
    const stale = await world.t.client.graphql(UPDATE, { input: { ...input, idempotencyKey: null } }, { bearer });
    expect(stale.body.errors[0].extensions).toEqual({ code: 'wrong_password', status: 401 });
  });

  it('answers a signature without a bearer token and a bad new password in userErrors, keeping the sibling that succeeded', async () => {
    const user = await createAccount(world.t, world.platform);
    const signed = await world.t.client.as(user.keypair).graphql(UPDATE, { input: { oldPassword: user.password, newPassword: 'signed new password' } });
    expect(signed.body.data.updatePassword).toEqual({ credentials: null, userErrors: [{ code: 'JWT_REQUIRED', field: null }] });
    const bearer = await bearerOf(user.id, user.password);
    const res = await world.t.client.graphql(
      `mutation($a: UpdatePasswordInput!, $b: UpdatePasswordInput!) {
        a: updatePassword(input: $a) { credentials { accountId } userErrors { code field } }
        b: updatePassword(input: $b) { credentials { accountId } userErrors { code field } }
      }`,
      { a: { oldPassword: user.password, newPassword: 'sibling new password' }, b: { oldPassword: 'sibling new password', newPassword: 'x' } },
      { bearer },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      a: { credentials: { accountId: user.id }, userErrors: [] },
      b: { credentials: null, userErrors: [{ code: 'INVALID_FIELD', field: 'newPassword' }] },
    });
    expect((await signIn(world.t, { account_id: user.id, password: 'sibling new password' })).status).toBe(201);
  });
});

describe('startRecovery and confirmRecovery', () => {
  it('recovers a password: neither payload answers the token or the password, and neither key keeps them', async () => {
    const user = await verifiedUser();
    const started = await world.t.client.as(user.keypair).graphql(START, { input: { email: user.email, platformId: world.platform.publicKey(), idempotencyKey: 'start-1' } });
    expect(started.body.errors).toBeUndefined();
    expect(started.body.data.startRecovery).toEqual({ sent: true, userErrors: [] });
    const token = await lastToken(world.t.orm, user.email);
    expect(started.text).not.toContain(token);
    expect(started.text).not.toContain(user.id);

    const input = { accountId: user.id, token, newPassword: 'recovered by payload', idempotencyKey: 'confirm-1' };
    const confirmed = await world.t.client.as(user.keypair).graphql(CONFIRM, { input });
    expect(confirmed.body.errors).toBeUndefined();
    expect(confirmed.body.data.confirmRecovery).toEqual({ accountId: user.id, userErrors: [] });
    expectNoSecrets(confirmed, token, input.newPassword);
    expect((await signIn(world.t, { account_id: user.id, password: input.newPassword })).status).toBe(201);

    // The token is used: the keyed retry is answered the first result, and another token changes nothing.
    const again = await world.t.client.as(user.keypair).graphql(CONFIRM, { input: { ...input, token: 'A'.repeat(20), newPassword: 'not set by a retry' } });
    expect(again.body.data).toEqual(confirmed.body.data);
    expect((await signIn(world.t, { account_id: user.id, password: 'not set by a retry' })).status).toBe(401);
    const stored = (await keyRowsText('start-1')) + (await keyRowsText('confirm-1'));
    expect(stored).toContain('confirmRecovery');
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('recovered by payload');

    const used = await world.t.client.graphql(CONFIRM, { input: { accountId: user.id, token, newPassword: 'one more password' } });
    expect(used.body.data.confirmRecovery).toEqual({ accountId: null, userErrors: [{ code: 'INVALID_RECOVERY_TOKEN', field: null }] });
  });

  it('answers unknown and unverified accounts in userErrors with the codes PUT /recovery_requests answers', async () => {
    const unverified = await createAccount(world.t, world.platform);
    const unknown = Keypair.random().publicKey();
    const platformId = world.platform.publicKey();
    const res = await world.t.client.graphql(
      `mutation($a: StartRecoveryInput!, $b: StartRecoveryInput!, $c: StartRecoveryInput!, $d: StartRecoveryInput!) {
        a: startRecovery(input: $a) { sent userErrors { code field } }
        b: startRecovery(input: $b) { sent userErrors { code field } }
        c: startRecovery(input: $c) { sent userErrors { code field } }
        d: startRecovery(input: $d) { sent userErrors { code field } }
      }`,
      { a: { accountId: unknown }, b: { email: 'nobody@example.com', platformId }, c: { email: unverified.email }, d: { accountId: unverified.id } },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      a: { sent: null, userErrors: [{ code: 'ACCOUNT_NOT_FOUND', field: 'accountId' }] },
      b: { sent: null, userErrors: [{ code: 'ACCOUNT_NOT_FOUND', field: 'email' }] },
      c: { sent: null, userErrors: [{ code: 'IDENTIFICATION_INCOMPLETE', field: 'platformId' }] },
      d: { sent: null, userErrors: [{ code: 'EMAIL_NOT_VERIFIED', field: null }] },
    });
    const put = (data: Record<string, unknown>) => world.t.client.put('/recovery_requests', { data: { type: 'recovery_requests', ...data } });
    expect((await put({ id: unknown })).body.errors[0].code).toBe('account_not_found');
    expect((await put({ attributes: { email: 'nobody@example.com', platform_id: platformId } })).body.errors[0].code).toBe('account_not_found');
    expect((await put({ attributes: { email: unverified.email } })).body.errors[0].code).toBe('identification_incomplete');
    expect((await put({ id: unverified.id })).body.errors[0].code).toBe('email_not_verified');

    const missing = await world.t.client.graphql(CONFIRM, { input: { accountId: unverified.id, token: 'A'.repeat(20), newPassword: 'long enough password' } });
    expect(missing.body.data.confirmRecovery).toEqual({ accountId: null, userErrors: [{ code: 'RECOVERY_NOT_FOUND', field: 'accountId' }] });
    const keyed = await world.t.client.graphql(START, { input: { accountId: unverified.id, idempotencyKey: 'anonymous' } });
    expect(keyed.body.data.startRecovery).toEqual({ sent: null, userErrors: [{ code: 'INVALID_FIELD', field: 'idempotencyKey' }] });
  });
});
