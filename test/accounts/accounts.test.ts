import { Keypair } from '@stellar/stellar-sdk';
import { appWithPlatform } from '../helpers/world';
import { createAccount, lastToken } from '../helpers/factories';

const world = appWithPlatform();

describe('POST /accounts', () => {
  it('lets a user register itself and returns the record without the password', async () => {
    const user = await createAccount(world.t, world.platform, { attributes: { phone_number: '+995555123456', country: 'GEO', currency: 'GEL', locale: 'en' } });
    expect(user.body.data).toMatchObject({
      type: 'accounts',
      id: user.id,
      attributes: {
        account_type: 4,
        account_type_str: 'user',
        platform_id: world.platform.publicKey(),
        email: user.email,
        email_verified: false,
        phone_number: '+995555123456',
        phone_verified: false,
        country: 'GEO',
        details: null,
      },
    });
    expect(JSON.stringify(user.body)).not.toMatch(/password|scrypt/);
    expect(await lastToken(world.t.orm, user.email)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await lastToken(world.t.orm, '+995555123456')).toMatch(/^\d{6}$/);
  });

  it('lets platform staff create a broker', async () => {
    const broker = await createAccount(world.t, world.platform, { type: 'broker' });
    expect(broker.body.data.attributes).toMatchObject({ account_type: 6, account_type_str: 'broker', broker_cities: ['Tbilisi'] });
  });

  it('lists one error per faulty attribute', async () => {
    const id = Keypair.random();
    const res = await world.t.client.as(id).post('/accounts', {
      data: { type: 'accounts', id: id.publicKey(), attributes: { account_type: 'user', platform_id: world.platform.publicKey(), first_name: 'x'.repeat(31), email: 'nope', password: 'short', country: 'XXX' } },
    });
    expect(res.status).toBe(400);
    const pointers = res.body.errors.map((e: any) => e.source.pointer).sort();
    expect(pointers).toEqual([
      '/data/attributes/country',
      '/data/attributes/email',
      '/data/attributes/first_name',
      '/data/attributes/last_name',
      '/data/attributes/password',
    ]);
    expect(res.body.errors.find((e: any) => e.source.pointer === '/data/attributes/last_name').code).toBe('missing_field');
  });

  it('answers 409 to a taken email on the same platform', async () => {
    const first = await createAccount(world.t, world.platform);
    await expect(createAccount(world.t, world.platform, { attributes: { email: first.email.toUpperCase() } })).rejects.toThrow(/409/);
  });
});

describe('verification', () => {
  it('sets email_verified with the emailed token, once', async () => {
    const user = await createAccount(world.t, world.platform);
    const token = await lastToken(world.t.orm, user.email);
    const body = { data: { type: 'accounts', id: user.id, attributes: { token } } };
    const res = await world.t.client.patch('/accounts/verification/email', body);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ email_verified: true, phone_verified: false, account_type: 4, flags: 0 });
    const again = await world.t.client.patch('/accounts/verification/email', body);
    expect(again.status).toBe(401);
    expect(again.body.errors[0].code).toBe('invalid_token');
  });
});
