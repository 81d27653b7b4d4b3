import { VerificationToken } from '../../src/modules/verification/verification.entity';
import { appWithPlatform } from '../helpers/world';
import { absentAccountId, createAccount, lastToken } from '../helpers/factories';

const world = appWithPlatform();

const verify = (channel: 'email' | 'phone', id: string, token: string) =>
  world.t.client.patch(`/accounts/verification/${channel}`, { data: { type: 'accounts', id, attributes: { token } } });

describe('verification over REST', () => {
  it('verifies the phone with the SMS token', async () => {
    const user = await createAccount(world.t, world.platform, { attributes: { phone_number: '+380501234567' } });
    const res = await verify('phone', user.id, await lastToken(world.t.orm, '+380501234567'));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ phone_verified: true, email_verified: false, phone_number: '+380501234567' });
  });

  it('refuses a wrong or expired token with 401, and an unknown account with 404', async () => {
    const user = await createAccount(world.t, world.platform);
    expect((await verify('email', user.id, 'x'.repeat(32))).status).toBe(401);
    const token = await lastToken(world.t.orm, user.email);
    await world.t.orm.em.fork().nativeUpdate(VerificationToken, { accountId: user.id }, { expiresAt: new Date(Date.now() - 1000) });
    const expired = await verify('email', user.id, token);
    expect(expired.status).toBe(401);
    expect(expired.body.errors[0].code).toBe('invalid_token');
    const unknown = await verify('email', absentAccountId(world.platform.publicKey()), token);
    expect(unknown.status).toBe(404);
  });

  it('resends a new token once a minute per channel; the old token stops working', async () => {
    const user = await createAccount(world.t, world.platform, { attributes: { phone_number: '+995599000222' } });
    const first = await lastToken(world.t.orm, user.email);
    const resend = await world.t.client.get(`/accounts/verification/resend?account_id=${user.id}&receiver=email`);
    expect(resend.status).toBe(204);
    const second = await lastToken(world.t.orm, user.email);
    expect(second).not.toBe(first);
    const tooSoon = await world.t.client.get(`/accounts/verification/resend?account_id=${user.id}&receiver=email`);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.errors[0]).toMatchObject({ status: '429', code: 'resend_too_soon' });
    expect((await world.t.client.get(`/accounts/verification/resend?account_id=${user.id}&receiver=phone`)).status).toBe(204);
    expect((await verify('email', user.id, first)).status).toBe(401);
    expect((await verify('email', user.id, second)).status).toBe(200);
  });

  it('answers resend errors: 404 unknown account, 400 bad receiver, 400 no phone number', async () => {
    const user = await createAccount(world.t, world.platform);
    const unknown = await world.t.client.get(`/accounts/verification/resend?account_id=${absentAccountId(world.platform.publicKey())}&receiver=email`);
    expect(unknown.status).toBe(404);
    const bad = await world.t.client.get(`/accounts/verification/resend?account_id=${user.id}&receiver=fax`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source).toEqual({ parameter: 'receiver' });
    const missing = await world.t.client.get(`/accounts/verification/resend?account_id=${user.id}`);
    expect(missing.body.errors[0]).toMatchObject({ code: 'missing_parameter', source: { parameter: 'receiver' } });
    const noPhone = await world.t.client.get(`/accounts/verification/resend?account_id=${user.id}&receiver=phone`);
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.errors[0].code).toBe('no_phone_number');
  });
});
