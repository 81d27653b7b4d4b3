import { Keypair } from '@stellar/stellar-sdk';
import { appWithTwoPlatforms } from '../helpers/world';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { bearerFor, leaksOf, watchResponses } from '../blacklist/support';

const recorded = watchResponses();
const world = appWithTwoPlatforms();
let user: CreatedAccount;
let neighbour: CreatedAccount;

const PUBLIC_KEYS = ['account_type', 'account_type_str', 'avatar_link', 'company', 'first_name', 'last_name', 'platform_id'];

beforeAll(async () => {
  user = await createAccount(world.t, world.platform, {
    attributes: { phone_number: '+995555000111', address: '1 Rustaveli Ave', city: 'Tbilisi', company: 'Lee & Co', country: 'GEO' },
  });
  neighbour = await createAccount(world.t, world.platform);
});

describe('GET /accounts/{id}', () => {
  it.each([
    ['the account itself', () => user.keypair],
    ['its platform', () => world.platform],
    ['an admin of its platform', () => world.admin.keypair],
  ])('shows the full record to %s', async (_, who) => {
    const res = await world.t.client.as(who()).get(`/accounts/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'accounts',
      id: user.id,
      attributes: {
        account_type: 4,
        account_type_str: 'user',
        platform_id: world.platform.publicKey(),
        email: user.email,
        email_verified: false,
        phone_number: '+995555000111',
        phone_verified: false,
        address: '1 Rustaveli Ave',
        city: 'Tbilisi',
        company: 'Lee & Co',
        country: 'GEO',
        details: null,
        flags: 0,
      },
    });
    expect(res.body.data.attributes.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('shows the full record to the account through its bearer token too', async () => {
    const res = await world.t.client.get(`/accounts/${user.id}`, { bearer: await bearerFor(world.t, user.id) });
    expect(res.body.data.attributes.email).toBe(user.email);
  });

  it.each([
    ['staff of another platform', () => world.otherAdmin.keypair],
    ['another platform', () => world.otherPlatform],
    ['another user of the same platform', () => neighbour.keypair],
    ['an anonymous caller', () => null],
  ])('shows only the public view to %s', async (_, who) => {
    const caller = who();
    const res = await (caller ? world.t.client.as(caller) : world.t.client).get(`/accounts/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(user.id);
    expect(Object.keys(res.body.data.attributes).sort()).toEqual(PUBLIC_KEYS);
    expect(res.body.data.attributes).not.toHaveProperty('email');
    expect(res.body.data.attributes).not.toHaveProperty('phone_number');
    expect(res.body.data.attributes).not.toHaveProperty('address');
    expect(res.body.data.attributes).toMatchObject({ first_name: 'Ann', last_name: 'Lee', company: 'Lee & Co' });
  });

  it('answers 404 for an unknown account and for the master account', async () => {
    for (const id of [Keypair.random().publicKey(), world.t.master.publicKey()]) {
      const res = await world.t.client.get(`/accounts/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.errors[0].code).toBe('account_not_found');
    }
  });
});

describe('PATCH /accounts/{id}', () => {
  const patch = (id: string, attributes: Record<string, unknown>) => ({ data: { type: 'accounts', id, attributes } });

  it('lets the account change its own profile (200, full record)', async () => {
    const res = await world.t.client.as(user.keypair).patch(`/accounts/${user.id}`, patch(user.id, { city: 'Batumi', locale: 'ru', currency: 'EUR' }));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ city: 'Batumi', locale: 'ru', currency: 'EUR', email: user.email });
    const read = await world.t.client.as(user.keypair).get(`/accounts/${user.id}`);
    expect(read.body.data.attributes).toMatchObject({ city: 'Batumi', currency: 'EUR' });
  });

  it('lets staff of its platform change it', async () => {
    const res = await world.t.client.as(world.admin.keypair).patch(`/accounts/${user.id}`, patch(user.id, { company: 'Changed by staff' }));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.company).toBe('Changed by staff');
  });

  it.each([
    ['another user', () => neighbour.keypair],
    ["another platform's staff", () => world.otherAdmin.keypair],
  ])('answers 403 not_allowed to %s and changes nothing', async (_, who) => {
    const res = await world.t.client.as(who()).patch(`/accounts/${user.id}`, patch(user.id, { company: 'Hijacked' }));
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('not_allowed');
    const read = await world.t.client.as(user.keypair).get(`/accounts/${user.id}`);
    expect(read.body.data.attributes.company).not.toBe('Hijacked');
  });

  it('answers 404 for an unknown account', async () => {
    const id = Keypair.random().publicKey();
    const res = await world.t.client.as(world.platform).patch(`/accounts/${id}`, patch(id, { city: 'Kutaisi' }));
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('account_not_found');
  });

  it('answers 400 with one pointer per malformed attribute', async () => {
    const res = await world.t.client.as(user.keypair).patch(`/accounts/${user.id}`, patch(user.id, { first_name: 'x'.repeat(31), currency: 'XYZ', avatar_link: 'not a link' }));
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
      '/data/attributes/avatar_link',
      '/data/attributes/currency',
      '/data/attributes/first_name',
    ]);
    expect(res.body.errors.every((e: any) => e.code === 'invalid_field' && e.status === '400')).toBe(true);
  });

  it('answers 400 to a document of another type, and 401 unsigned', async () => {
    const wrongType = await world.t.client.as(user.keypair).patch(`/accounts/${user.id}`, { data: { type: 'users', id: user.id, attributes: {} } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0].source.pointer).toBe('/data/type');
    const unsigned = await world.t.client.patch(`/accounts/${user.id}`, patch(user.id, { city: 'Poti' }));
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.errors[0].code).toBe('unauthenticated');
  });
});

it('never answered a password or a password hash', () => {
  expect(recorded.length).toBeGreaterThan(20);
  expect(leaksOf(recorded, ['correct horse battery'])).toEqual([]);
});
