import { Keypair } from '@stellar/stellar-sdk';
import { OutboxMessage } from '../../src/modules/outbox/outbox.entity';
import { RecoveryRequest } from '../../src/modules/recovery/recovery.entity';
import { tokenHash } from '../../src/core/tokens';
import { appWithPlatform } from '../helpers/world';
import { createAccount, createPlatform, lastToken, type CreatedAccount } from '../helpers/factories';
import { expectNoSecrets, signIn } from '../credentials/support';

const world = appWithPlatform();

/** A user whose email is verified with the token it was sent. */
async function verifiedUser(): Promise<CreatedAccount> {
  const user = await createAccount(world.t, world.platform);
  const token = await lastToken(world.t.orm, user.email);
  const res = await world.t.client.patch('/accounts/verification/email', { data: { type: 'accounts', id: user.id, attributes: { token } } });
  expect(res.status).toBe(200);
  return user;
}

const requestRecovery = (data: Record<string, unknown>) => world.t.client.put('/recovery_requests', { data: { type: 'recovery_requests', ...data } });
const approve = (id: string, token: string, new_password: unknown) =>
  world.t.client.patch('/recovery_requests', { data: { type: 'recovery_requests', id, attributes: { token, new_password } } });

describe('PUT /recovery_requests', () => {
  it('sends a 20-character token to the verified email, stored only as its hash', async () => {
    const user = await verifiedUser();
    const res = await requestRecovery({ id: user.id });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const token = await lastToken(world.t.orm, user.email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const [message] = await world.t.orm.em.fork().find(OutboxMessage, { recipient: user.email }, { orderBy: { id: 'desc' }, limit: 1 });
    expect(message).toMatchObject({ channel: 'email', accountId: user.id, platformId: world.platform.publicKey(), subject: 'Reset your password' });
    const stored = await world.t.orm.em.fork().findOneOrFail(RecoveryRequest, { accountId: user.id });
    expect(Buffer.compare(stored.tokenHash, tokenHash(token))).toBe(0);
    expect(stored.tokenHash.toString('utf8')).not.toContain(token);
    expect(stored.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
  });

  it('finds the account by email (any case) with platform_id, and needs no data.type', async () => {
    const user = await verifiedUser();
    const res = await world.t.client.put('/recovery_requests', { data: { attributes: { email: user.email.toUpperCase(), platform_id: world.platform.publicKey() } } });
    expect(res.status).toBe(204);
    expect(await lastToken(world.t.orm, user.email)).toMatch(/^[A-Za-z0-9_-]{20}$/);
  });

  it('answers 404 account_not_found for an unknown account id or email', async () => {
    const byId = await requestRecovery({ id: Keypair.random().publicKey() });
    expect(byId.status).toBe(404);
    expect(byId.body.errors[0]).toMatchObject({ code: 'account_not_found', source: { pointer: '/data/id' } });
    const byEmail = await requestRecovery({ attributes: { email: 'nobody@example.com', platform_id: world.platform.publicKey() } });
    expect(byEmail.status).toBe(404);
    expect(byEmail.body.errors[0].code).toBe('account_not_found');
  });

  it('answers 400 email_not_verified and sends nothing while the email is not verified', async () => {
    const user = await createAccount(world.t, world.platform);
    const before = await world.t.orm.em.fork().count(OutboxMessage, { recipient: user.email });
    const res = await requestRecovery({ id: user.id });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('email_not_verified');
    expect(await world.t.orm.em.fork().count(OutboxMessage, { recipient: user.email })).toBe(before);
    expect(await world.t.orm.em.fork().count(RecoveryRequest, { accountId: user.id })).toBe(0);
  });

  it('answers 400 to an incomplete identification, a malformed id and another data.type', async () => {
    const none = await requestRecovery({ attributes: {} });
    expect(none.status).toBe(400);
    expect(none.body.errors[0]).toMatchObject({ code: 'identification_incomplete', source: { pointer: '/data/id' } });
    const emailOnly = await requestRecovery({ attributes: { email: 'a@example.com' } });
    expect(emailOnly.body.errors[0]).toMatchObject({ code: 'identification_incomplete', source: { pointer: '/data/attributes/platform_id' } });
    const platformOnly = await requestRecovery({ attributes: { platform_id: world.platform.publicKey() } });
    expect(platformOnly.body.errors[0]).toMatchObject({ code: 'identification_incomplete', source: { pointer: '/data/attributes/email' } });
    const malformed = await requestRecovery({ id: 'nope' });
    expect(malformed.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/id' } });
    const user = await verifiedUser();
    const wrongType = await world.t.client.put('/recovery_requests', { data: { type: 'accounts', id: user.id } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0].source.pointer).toBe('/data/type');
  });

  it('answers 404 credentials_not_found for an account without credentials', async () => {
    const bare = await createPlatform(world.t, { email: 'platform-recovery@example.com' });
    const res = await requestRecovery({ id: bare.publicKey() });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('credentials_not_found');
  });
});

describe('PATCH /recovery_requests', () => {
  it('sets the new password with the token, once', async () => {
    const user = await verifiedUser();
    await requestRecovery({ id: user.id });
    const token = await lastToken(world.t.orm, user.email);
    const res = await approve(user.id, token, 'recovered password');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await signIn(world.t, { account_id: user.id, password: 'recovered password' })).status).toBe(201);
    expect((await signIn(world.t, { account_id: user.id, password: user.password })).status).toBe(401);

    const again = await approve(user.id, token, 'another password');
    expect(again.status).toBe(403);
    expect(again.body.errors[0]).toMatchObject({ status: '403', code: 'invalid_recovery_token' });
    expect((await signIn(world.t, { account_id: user.id, password: 'recovered password' })).status).toBe(201);
  });

  it('accepts only the newest token of the account', async () => {
    const user = await verifiedUser();
    await requestRecovery({ id: user.id });
    const first = await lastToken(world.t.orm, user.email);
    await requestRecovery({ id: user.id });
    const second = await lastToken(world.t.orm, user.email);
    expect(second).not.toBe(first);
    expect((await approve(user.id, first, 'recovered password')).status).toBe(403);
    expect((await approve(user.id, second, 'recovered password')).status).toBe(204);
  });

  it('answers 403 invalid_recovery_token to a wrong or expired token, keeping the password', async () => {
    const user = await verifiedUser();
    await requestRecovery({ id: user.id });
    const token = await lastToken(world.t.orm, user.email);
    const wrong = await approve(user.id, token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), 'recovered password');
    expect(wrong.status).toBe(403);
    expect(wrong.body.errors[0].code).toBe('invalid_recovery_token');

    await world.t.orm.em.fork().nativeUpdate(RecoveryRequest, { accountId: user.id }, { expiresAt: new Date(Date.now() - 1000) });
    const expired = await approve(user.id, token, 'recovered password');
    expect(expired.status).toBe(403);
    expect(expired.body.errors[0].code).toBe('invalid_recovery_token');
    expect((await signIn(world.t, { account_id: user.id, password: user.password })).status).toBe(201);
  });

  it('answers 404 recovery_not_found when the account has no request', async () => {
    const user = await verifiedUser();
    for (const id of [user.id, Keypair.random().publicKey()]) {
      const res = await approve(id, 'A'.repeat(20), 'recovered password');
      expect(res.status).toBe(404);
      expect(res.body.errors[0]).toMatchObject({ code: 'recovery_not_found', source: { pointer: '/data/id' } });
    }
  });

  it('answers 400 to a malformed new password or a missing id, and keeps the token', async () => {
    const user = await verifiedUser();
    await requestRecovery({ id: user.id });
    const token = await lastToken(world.t.orm, user.email);
    for (const password of ['short', 'x'.repeat(65)]) {
      const res = await approve(user.id, token, password);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'invalid_field', source: { pointer: '/data/attributes/new_password' } });
      expectNoSecrets(res, password);
    }
    const noId = await world.t.client.patch('/recovery_requests', { data: { attributes: { token, new_password: 'recovered password' } } });
    expect(noId.status).toBe(400);
    expect(noId.body.errors[0]).toMatchObject({ code: 'missing_field', source: { pointer: '/data/id' } });
    expect((await approve(user.id, token, 'recovered password')).status).toBe(204);
  });

  it('lifts a sign-in lockout of the account', async () => {
    const user = await verifiedUser();
    for (let i = 0; i < 10; i++) await signIn(world.t, { email: user.email, platform_id: world.platform.publicKey(), password: 'wrong password' });
    expect((await signIn(world.t, { account_id: user.id, password: user.password })).status).toBe(429);
    await requestRecovery({ id: user.id });
    expect((await approve(user.id, await lastToken(world.t.orm, user.email), 'recovered password')).status).toBe(204);
    expect((await signIn(world.t, { account_id: user.id, password: 'recovered password' })).status).toBe(201);
    expect((await signIn(world.t, { email: user.email, platform_id: world.platform.publicKey(), password: 'recovered password' })).status).toBe(201);
  });
});

describe('GraphQL recovery', () => {
  it('requestRecovery and approveRecovery call the same services, with the same codes', async () => {
    const user = await verifiedUser();
    const request = 'mutation($id: String, $email: String, $platform: String) { requestRecovery(accountId: $id, email: $email, platformId: $platform) }';
    const approval = 'mutation($id: String!, $token: String!, $pw: String!) { approveRecovery(accountId: $id, token: $token, newPassword: $pw) }';

    const missing = await world.t.client.graphql(approval, { id: user.id, token: 'A'.repeat(20), pw: 'graphql recovered' });
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'recovery_not_found', status: 404 });
    const incomplete = await world.t.client.graphql(request, { email: user.email });
    expect(incomplete.body.errors[0].extensions).toMatchObject({ code: 'identification_incomplete', status: 400 });

    const sent = await world.t.client.graphql(request, { email: user.email, platform: world.platform.publicKey() });
    expect(sent.body.data.requestRecovery).toBe(true);
    const token = await lastToken(world.t.orm, user.email);
    const wrong = await world.t.client.graphql(approval, { id: user.id, token: 'B'.repeat(20), pw: 'graphql recovered' });
    expect(wrong.body.errors[0].extensions).toEqual({ code: 'invalid_recovery_token', status: 403 });
    const done = await world.t.client.graphql(approval, { id: user.id, token, pw: 'graphql recovered' });
    expect(done.body.data.approveRecovery).toBe(true);
    expect((await signIn(world.t, { account_id: user.id, password: 'graphql recovered' })).status).toBe(201);

    const unverified = await createAccount(world.t, world.platform);
    const refused = await world.t.client.graphql(request, { id: unverified.id });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'email_not_verified', status: 400 });
  });
});
