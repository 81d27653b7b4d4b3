import { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { leaksOf, watchResponses } from '../blacklist/support';
import { createLot, DIRECT_SALE } from '../helpers/lots';
import { clientHash, fileRequest, reviewDoc } from '../requests/requests.helpers';

const recorded = watchResponses();
let t: TestApp;
let platform: Keypair;
let other: Keypair;
let zed: CreatedAccount;
let abe: CreatedAccount;
let abeB: CreatedAccount;
let kakhetiAdmin: CreatedAccount;
let otherBroker: CreatedAccount;

const CONTACT_KEYS = ['account_type', 'account_type_str', 'avatar_link', 'city', 'company', 'email', 'first_name', 'last_name', 'phone_number', 'platform_id', 'region'];
const BROKER_KEYS = [...CONTACT_KEYS, 'broker_cities', 'social_token_a', 'social_token_b'].sort();

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  other = await createPlatform(t);
  const broker = (last: string, first: string, region: string, extra: Record<string, unknown> = {}) =>
    createAccount(t, platform, { type: 'broker', attributes: { last_name: last, first_name: first, region, ...extra } });
  zed = await broker('Zed', 'Anna', 'Kakheti', { phone_number: '+995555000222', social_token_a: 'tg-zed', city: 'Telavi', address: 'secret street 1' });
  abe = await broker('Abe', 'Zoe', 'Imereti');
  abeB = await broker('Abe', 'Bob', 'kakheti');
  kakhetiAdmin = await createAccount(t, platform, { type: 'admin', attributes: { last_name: 'Mid', region: 'KAKHETI' } });
  await createAccount(t, platform, { attributes: { region: 'Kakheti' } }); // a user: never a contact
  otherBroker = await createAccount(t, other, { type: 'broker', attributes: { region: 'Kakheti' } });
});
afterAll(() => t.close());

const ids = (res: { body: any }) => res.body.data.map((r: any) => r.id);

describe('GET /brokers', () => {
  it('lists every broker of the platform, by last name, first name and id, without authentication', async () => {
    const res = await t.client.get(`/brokers?filter[platform_id]=${platform.publicKey()}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([abeB.id, abe.id, zed.id]);
  });

  it('answers contact fields only, with the broker fields', async () => {
    const res = await t.client.get(`/brokers?filter[platform_id]=${platform.publicKey()}`);
    const z = res.body.data.find((r: any) => r.id === zed.id);
    expect(z.type).toBe('accounts');
    expect(Object.keys(z.attributes).sort()).toEqual(BROKER_KEYS);
    expect(z.attributes).toMatchObject({
      account_type: 6,
      account_type_str: 'broker',
      platform_id: platform.publicKey(),
      email: zed.email,
      phone_number: '+995555000222',
      city: 'Telavi',
      region: 'Kakheti',
      broker_cities: ['Tbilisi'],
      social_token_a: 'tg-zed',
      social_token_b: null,
    });
    expect(res.text).not.toContain('secret street');
  });

  it('with a region, lists the brokers and admins of that region, case-insensitively', async () => {
    const res = await t.client.get(`/brokers?filter[platform_id]=${platform.publicKey()}&filter[region]=kAkHeTi`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([abeB.id, kakhetiAdmin.id, zed.id]);
    const adminRecord = res.body.data.find((r: any) => r.id === kakhetiAdmin.id);
    expect(Object.keys(adminRecord.attributes).sort()).toEqual(CONTACT_KEYS.sort());
    expect(ids(res)).not.toContain(otherBroker.id);
  });

  it('treats LIKE wildcards in the region literally', async () => {
    const res = await t.client.get(`/brokers?filter[platform_id]=${platform.publicKey()}&filter[region]=K%25`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('answers an empty list for an unknown platform', async () => {
    const res = await t.client.get(`/brokers?filter[platform_id]=${Keypair.random().publicKey()}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it.each([
    ['no platform', '/brokers', 'missing_parameter', 'filter[platform_id]'],
    ['a platform id that is no account id', '/brokers?filter[platform_id]=nope', 'invalid_parameter', 'filter[platform_id]'],
    ['an empty region', '/brokers?filter[platform_id]=PLATFORM&filter[region]=', 'invalid_parameter', 'filter[region]'],
    ['an unknown parameter', '/brokers?filter[platform_id]=PLATFORM&sort=last_name', 'unknown_parameter', 'sort'],
  ])('answers 400 to %s', async (_, target, code, parameter) => {
    const res = await t.client.get(target.replace('PLATFORM', platform.publicKey()));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code, source: { parameter } });
  });
});

describe('GET /brokers with filter[lot_id]', () => {
  async function directSaleOf(seller: CreatedAccount): Promise<string> {
    const request = await fileRequest(t, seller.keypair, DIRECT_SALE);
    const shown = await t.client.as(platform).get(`/requests/${request.id}`);
    const review = await t.client.as(platform).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: clientHash(shown.body.data.attributes), state: 'approved' }));
    expect(review.status).toBe(200);
    return String(review.body.data.attributes.lot_id);
  }

  it('answers the organizer of a direct sale by a user of the platform', async () => {
    const seller = await createAccount(t, platform, { attributes: { phone_number: '+995555000111' } });
    const lotId = await directSaleOf(seller);
    const res = await t.client.get(`/brokers?filter[platform_id]=${platform.publicKey()}&filter[lot_id]=${lotId}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([seller.id]);
    expect(res.body.data[0].attributes).toMatchObject({ email: seller.email, phone_number: '+995555000111' });
  });

  it('falls back to the brokers for an auction or another platform', async () => {
    const auction = await createLot(t, platform);
    const all = await t.client.get(`/brokers?filter[platform_id]=${platform.publicKey()}`);
    const forAuction = await t.client.get(`/brokers?filter[platform_id]=${platform.publicKey()}&filter[lot_id]=${auction.id}`);
    expect(ids(forAuction)).toEqual(ids(all));
    const seller = await createAccount(t, platform);
    const lotId = await directSaleOf(seller);
    const elsewhere = await t.client.get(`/brokers?filter[platform_id]=${other.publicKey()}&filter[lot_id]=${lotId}`);
    expect(ids(elsewhere)).not.toContain(seller.id);
  });

  it('answers 404 for an unknown lot', async () => {
    const res = await t.client.get(`/brokers?filter[platform_id]=${platform.publicKey()}&filter[lot_id]=999999`);
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ code: 'lot_not_found', source: { parameter: 'filter[lot_id]' } });
  });
});

describe('GET /admins', () => {
  it('lists the admins of the platform with contact fields', async () => {
    const admin2 = await createAccount(t, platform, { type: 'admin', attributes: { last_name: 'Aaron' } });
    const res = await t.client.get(`/admins?filter[platform_id]=${platform.publicKey()}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([admin2.id, kakhetiAdmin.id]);
    expect(res.body.data[0]).toMatchObject({ type: 'accounts', attributes: { account_type: 5, account_type_str: 'admin', email: admin2.email } });
    expect(Object.keys(res.body.data[0].attributes).sort()).toEqual(CONTACT_KEYS.sort());
  });

  it('answers 400 without filter[platform_id] and to filter[region]', async () => {
    const missing = await t.client.get('/admins');
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ code: 'missing_parameter', source: { parameter: 'filter[platform_id]' } });
    const region = await t.client.get(`/admins?filter[platform_id]=${platform.publicKey()}&filter[region]=Kakheti`);
    expect(region.status).toBe(400);
    expect(region.body.errors[0].code).toBe('unknown_filter');
  });
});

describe('GraphQL brokers and admins', () => {
  it('answer the same contacts, other fields null', async () => {
    const res = await t.client.graphql(
      'query($p: String!, $r: String) { brokers(platformId: $p, region: $r) { id email region address emailVerified } admins(platformId: $p) { id } }',
      { p: platform.publicKey(), r: 'KAKHETI' },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.brokers.map((b: any) => b.id)).toEqual([abeB.id, kakhetiAdmin.id, zed.id]);
    expect(res.body.data.brokers[2]).toEqual({ id: zed.id, email: zed.email, region: 'Kakheti', address: null, emailVerified: null });
    expect(res.body.data.admins.map((a: any) => a.id)).toContain(kakhetiAdmin.id);
  });

  it('names the faulty argument', async () => {
    const res = await t.client.graphql('{ admins(platformId: "nope") { id } }');
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'invalid_parameter', status: 400, errors: [{ field: 'platformId' }] });
  });
});

it('never answered a password or a password hash', () => {
  expect(recorded.length).toBeGreaterThan(10);
  expect(leaksOf(recorded, ['correct horse battery'])).toEqual([]);
});
