import { Keypair } from '@stellar/stellar-sdk';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { Credential } from '../../src/modules/credentials/credentials.entity';
import { claimsOf } from '../../src/modules/credentials/credentials.service';
import { appWithPlatform } from '../helpers/world';
import { AccountType, createAccount, createPlatform, insertAccount } from '../helpers/factories';
import { blacklist, expectNoSecrets, signIn } from './support';

const world = appWithPlatform();

const credentialsBody = (id: string, password: string) => ({ data: { type: 'credentials', id, attributes: { password } } });
const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());

describe('PUT /credentials', () => {
  it('sets the first password of the signing account, which then signs in with it', async () => {
    const owner = await createPlatform(world.t);
    const password = 'platform secret 1';
    const res = await world.t.client.as(owner).put('/credentials', credentialsBody(owner.publicKey(), password));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { type: 'credentials', id: owner.publicKey() } });
    expectNoSecrets(res, password);

    const stored = await world.t.orm.em.fork().findOneOrFail(Credential, { accountId: owner.publicKey() });
    expect(stored.passwordHash).not.toContain(password);
    const jwt = await signIn(world.t, { account_id: owner.publicKey(), password });
    expect(jwt.status).toBe(201);
    expect(decode(jwt.body.data.attributes.token)).toMatchObject({ sub: owner.publicKey(), account_type: AccountType.Platform });
  });

  it('answers 401 unauthenticated to an unsigned request', async () => {
    const owner = await createPlatform(world.t);
    const res = await world.t.client.put('/credentials', credentialsBody(owner.publicKey(), 'long enough'));
    expect(res.status).toBe(401);
    expect(res.body.errors[0]).toMatchObject({ status: '401', code: 'unauthenticated' });
    expect(await world.t.orm.em.fork().count(Credential, { accountId: owner.publicKey() })).toBe(0);
  });

  it('answers 403 not_allowed when another account signs', async () => {
    const owner = await createPlatform(world.t);
    const res = await world.t.client.as(world.platform).put('/credentials', credentialsBody(owner.publicKey(), 'long enough'));
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('not_allowed');
    expect(await world.t.orm.em.fork().count(Credential, { accountId: owner.publicKey() })).toBe(0);
  });

  it('answers 404 for an account that does not exist', async () => {
    const res = await world.t.client.as(world.platform).put('/credentials', credentialsBody(Keypair.random().publicKey(), 'long enough'));
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ code: 'account_not_found', source: { pointer: '/data/id' } });
  });

  it('answers 409 credentials_exist for an account created with a password, and keeps that password', async () => {
    const user = await createAccount(world.t, world.platform);
    const res = await world.t.client.as(user.keypair).put('/credentials', credentialsBody(user.id, 'another password'));
    expect(res.status).toBe(409);
    expect(res.body.errors[0].code).toBe('credentials_exist');
    expect((await signIn(world.t, { account_id: user.id, password: user.password })).status).toBe(201);
    expect((await signIn(world.t, { account_id: user.id, password: 'another password' })).status).toBe(401);
  });

  it('answers 400 to a password outside 8-64 symbols and to another data.type', async () => {
    const owner = await createPlatform(world.t);
    for (const password of ['7 chars', 'x'.repeat(65)]) {
      const res = await world.t.client.as(owner).put('/credentials', credentialsBody(owner.publicKey(), password));
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/password' } });
      expectNoSecrets(res, password);
    }
    const wrongType = await world.t.client.as(owner).put('/credentials', { data: { type: 'accounts', id: owner.publicKey(), attributes: { password: 'long enough' } } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0].source.pointer).toBe('/data/type');
    expect(await world.t.orm.em.fork().count(Credential, { accountId: owner.publicKey() })).toBe(0);
  });

  it('accepts 64 symbols of UTF-8', async () => {
    const owner = await createPlatform(world.t);
    const password = 'ü'.repeat(64);
    const res = await world.t.client.as(owner).put('/credentials', credentialsBody(owner.publicKey(), password));
    expect(res.status).toBe(201);
    expect((await signIn(world.t, { account_id: owner.publicKey(), password })).status).toBe(201);
  });

  it('is served through GraphQL as createCredentials, with the same codes', async () => {
    const owner = await createPlatform(world.t);
    const mutation = 'mutation($id: String!, $pw: String!) { createCredentials(accountId: $id, password: $pw) { accountId } }';
    const res = await world.t.client.as(owner).graphql(mutation, { id: owner.publicKey(), pw: 'graphql secret' });
    expect(res.body.data.createCredentials).toEqual({ accountId: owner.publicKey() });
    expectNoSecrets(res, 'graphql secret');
    const again = await world.t.client.as(owner).graphql(mutation, { id: owner.publicKey(), pw: 'graphql secret' });
    expect(again.body.errors[0].extensions).toMatchObject({ code: 'credentials_exist', status: 409 });
    const unsigned = await world.t.client.graphql(mutation, { id: owner.publicKey(), pw: 'graphql secret' });
    expect(unsigned.body.errors[0].extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
  });
});

describe('POST /jwt', () => {
  it('issues a token by account_id that identifies the caller', async () => {
    const user = await createAccount(world.t, world.platform);
    const res = await signIn(world.t, { account_id: user.id, password: user.password });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ type: 'jwt', id: user.id, attributes: { token: expect.any(String) } });
    expectNoSecrets(res, user.password);
    expect(decode(res.body.data.attributes.token)).toMatchObject({ sub: user.id, platform_id: world.platform.publicKey(), account_type: 4 });
    const me = await world.t.client.graphql('{ me { id } }', undefined, { bearer: res.body.data.attributes.token });
    expect(me.body.data.me.id).toBe(user.id);
  });

  it('issues a token by email (any case) with platform_id, whatever data.type says', async () => {
    const user = await createAccount(world.t, world.platform);
    const attributes = { email: user.email.toUpperCase(), platform_id: world.platform.publicKey(), password: user.password };
    for (const type of [undefined, 'jwt', 'anything']) {
      const res = await signIn(world.t, attributes, type);
      expect(res.status).toBe(201);
      expect(res.body.data.id).toBe(user.id);
    }
  });

  it('does not find an email on another platform', async () => {
    const user = await createAccount(world.t, world.platform);
    const other = await createPlatform(world.t);
    const res = await signIn(world.t, { email: user.email, platform_id: other.publicKey(), password: user.password });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('invalid_credentials');
  });

  it.each([
    [{ password: 'long enough' }, 'account_id'],
    [{ email: 'a@example.com', password: 'long enough' }, 'platform_id'],
    [{ platform_id: Keypair.random().publicKey(), password: 'long enough' }, 'email'],
    [{ account_id: null, email: null, password: 'long enough' }, 'account_id'],
  ])('answers 400 identification_incomplete to %j', async (attributes, member) => {
    const res = await signIn(world.t, attributes);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ status: '400', code: 'identification_incomplete', source: { pointer: `/data/attributes/${member}` } }),
    ]);
  });

  it('lists a missing password beside an incomplete identification, and rejects a malformed account_id', async () => {
    const both = await signIn(world.t, { email: 'a@example.com' });
    expect(both.status).toBe(400);
    expect(both.body.errors.map((e: any) => [e.code, e.source.pointer])).toEqual([
      ['missing_field', '/data/attributes/password'],
      ['identification_incomplete', '/data/attributes/platform_id'],
    ]);
    const malformed = await signIn(world.t, { account_id: 'not-a-key', password: 'long enough' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/account_id' } });
    const noBody = await world.t.client.post('/jwt');
    expect(noBody.status).toBe(400);
  });

  it('answers the same 401 invalid_credentials to a wrong password, an unknown account, an unknown email and an account without credentials', async () => {
    const user = await createAccount(world.t, world.platform);
    const bare = await createPlatform(world.t);
    const answers = await Promise.all([
      signIn(world.t, { account_id: user.id, password: 'wrong password' }),
      signIn(world.t, { account_id: Keypair.random().publicKey(), password: user.password }),
      signIn(world.t, { email: 'nobody@example.com', platform_id: world.platform.publicKey(), password: user.password }),
      signIn(world.t, { account_id: bare.publicKey(), password: user.password }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(answers[0].body);
      expect(res.body.errors[0].code).toBe('invalid_credentials');
      expectNoSecrets(res, user.password, 'wrong password');
    }
  });

  it('refuses a stopped account with 401 account_blocked even with the right password; a paused one signs in', async () => {
    const stopped = await createAccount(world.t, world.platform);
    await blacklist(world.t, stopped.id, 'stopped');
    const right = await signIn(world.t, { account_id: stopped.id, password: stopped.password });
    expect(right.status).toBe(401);
    expect(right.body.errors[0].code).toBe('account_blocked');
    expect(right.text).not.toContain('token"');
    const byEmail = await signIn(world.t, { email: stopped.email, platform_id: world.platform.publicKey(), password: stopped.password });
    expect(byEmail.body.errors[0].code).toBe('account_blocked');
    const wrong = await signIn(world.t, { account_id: stopped.id, password: 'wrong password' });
    expect(wrong.body.errors[0].code).toBe('invalid_credentials');

    const paused = await createAccount(world.t, world.platform);
    await blacklist(world.t, paused.id, 'paused');
    expect((await signIn(world.t, { account_id: paused.id, password: paused.password })).status).toBe(201);
  });

  it('is served through GraphQL as issueToken, with the same codes', async () => {
    const user = await createAccount(world.t, world.platform);
    const mutation = 'mutation($id: String, $email: String, $platform: String, $pw: String!) { issueToken(accountId: $id, email: $email, platformId: $platform, password: $pw) { accountId token } }';
    const byId = await world.t.client.graphql(mutation, { id: user.id, pw: user.password });
    expect(byId.body.data.issueToken.accountId).toBe(user.id);
    expect(decode(byId.body.data.issueToken.token).sub).toBe(user.id);
    const byEmail = await world.t.client.graphql(mutation, { email: user.email, platform: world.platform.publicKey(), pw: user.password });
    expect(byEmail.body.data.issueToken.accountId).toBe(user.id);
    const wrong = await world.t.client.graphql(mutation, { id: user.id, pw: 'wrong password' });
    expect(wrong.body.errors[0].extensions).toEqual({ code: 'invalid_credentials', status: 401 });
    const incomplete = await world.t.client.graphql(mutation, { email: user.email, pw: user.password });
    expect(incomplete.body.errors[0].extensions).toMatchObject({
      code: 'identification_incomplete',
      status: 400,
      errors: [expect.objectContaining({ field: 'platformId' })],
    });
  });
});

describe('PATCH /credentials', () => {
  const change = (bearer: string | undefined, attributes: Record<string, unknown>, sign?: Keypair) =>
    world.t.client.patch('/credentials', { data: { attributes } }, { ...(bearer ? { bearer } : {}), ...(sign ? { sign: { keypair: sign } } : {}) });

  it('changes the password of the bearer token account', async () => {
    const user = await createAccount(world.t, world.platform);
    const token = (await signIn(world.t, { account_id: user.id, password: user.password })).body.data.attributes.token;
    const res = await change(token, { old_password: user.password, new_password: 'brand new password' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { type: 'credentials', id: user.id } });
    expectNoSecrets(res, user.password, 'brand new password');
    expect((await signIn(world.t, { account_id: user.id, password: user.password })).status).toBe(401);
    expect((await signIn(world.t, { account_id: user.id, password: 'brand new password' })).status).toBe(201);
  });

  it('answers 403 jwt_required without a token, even with a valid signature', async () => {
    const user = await createAccount(world.t, world.platform);
    const attributes = { old_password: user.password, new_password: 'brand new password' };
    for (const res of [await change(undefined, attributes), await change(undefined, attributes, user.keypair)]) {
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('jwt_required');
    }
    expect((await signIn(world.t, { account_id: user.id, password: user.password })).status).toBe(201);
  });

  it('answers 401 jwt_invalid to a forged token', async () => {
    const res = await change('not.a.token', { old_password: 'whatever1', new_password: 'whatever2' });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('jwt_invalid');
  });

  it('answers 404 account_not_found when the account inside the token is gone', async () => {
    const ghost = await insertAccount(world.t.orm, AccountType.User, world.platform.publicKey());
    const account = await world.t.orm.em.fork().findOneOrFail(Account, { id: ghost.publicKey() });
    const token = await world.t.app.jwt.issue(claimsOf(account));
    await world.t.orm.em.fork().nativeDelete(Account, { id: ghost.publicKey() });
    const res = await change(token, { old_password: 'whatever1', new_password: 'whatever2' });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('account_not_found');
  });

  it('answers 404 credentials_not_found for an account that never set a password', async () => {
    const bare = await insertAccount(world.t.orm, AccountType.User, world.platform.publicKey());
    const account = await world.t.orm.em.fork().findOneOrFail(Account, { id: bare.publicKey() });
    const res = await change(await world.t.app.jwt.issue(claimsOf(account)), { old_password: 'whatever1', new_password: 'whatever2' });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('credentials_not_found');
  });

  it('answers 401 wrong_password to a wrong old password and 400 to a malformed new one, keeping the password', async () => {
    const user = await createAccount(world.t, world.platform);
    const token = (await signIn(world.t, { account_id: user.id, password: user.password })).body.data.attributes.token;
    const wrong = await change(token, { old_password: 'not the password', new_password: 'brand new password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].code).toBe('wrong_password');
    expectNoSecrets(wrong, 'not the password', 'brand new password');
    for (const new_password of ['short', 'x'.repeat(65), 12345678]) {
      const bad = await change(token, { old_password: user.password, new_password });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/new_password' } });
    }
    const missing = await change(token, { old_password: user.password });
    expect(missing.body.errors[0]).toMatchObject({ code: 'missing_field', source: { pointer: '/data/attributes/new_password' } });
    expect((await signIn(world.t, { account_id: user.id, password: user.password })).status).toBe(201);
  });

  it('is served through GraphQL as changePassword, with the same codes', async () => {
    const user = await createAccount(world.t, world.platform);
    const token = (await signIn(world.t, { account_id: user.id, password: user.password })).body.data.attributes.token;
    const mutation = 'mutation($old: String!, $new: String!) { changePassword(oldPassword: $old, newPassword: $new) { accountId } }';
    const wrong = await world.t.client.graphql(mutation, { old: 'not the password', new: 'graphql new password' }, { bearer: token });
    expect(wrong.body.errors[0].extensions).toEqual({ code: 'wrong_password', status: 401 });
    const signed = await world.t.client.as(user.keypair).graphql(mutation, { old: user.password, new: 'graphql new password' });
    expect(signed.body.errors[0].extensions).toEqual({ code: 'jwt_required', status: 403 });
    const res = await world.t.client.graphql(mutation, { old: user.password, new: 'graphql new password' }, { bearer: token });
    expect(res.body.data.changePassword).toEqual({ accountId: user.id });
    expect((await signIn(world.t, { account_id: user.id, password: 'graphql new password' })).status).toBe(201);
    // A second change in the same request sees the first one.
    const twice = await world.t.client.graphql(
      'mutation { a: changePassword(oldPassword: "graphql new password", newPassword: "third password") { accountId } b: changePassword(oldPassword: "third password", newPassword: "fourth password") { accountId } }',
      undefined,
      { bearer: token },
    );
    expect(twice.body.errors).toBeUndefined();
    expect((await signIn(world.t, { account_id: user.id, password: 'fourth password' })).status).toBe(201);
  });
});
