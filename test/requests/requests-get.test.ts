import type { Keypair } from '@stellar/stellar-sdk';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import { appWithRequestors, clientHash, fileRequest, reviewDoc } from './requests.helpers';

const world = appWithRequestors();
let otherPlatform: Keypair;
let otherAdmin: Keypair;
let trustingAdmin: Keypair;
const startTime = Math.floor(Date.now() / 1000) + 3600;
const AUCTION = {
  ...ENG_LOT,
  start_time: startTime,
  b2c_total_price: '7000.5',
  details: { ...ENG_LOT.details, engine_volume: 2.5, odometer_value: '120500', wheel: 'LEFT', registered: true, hd_img_links: ['https://img.example.com/1.jpg'] },
};

beforeAll(async () => {
  otherPlatform = await createPlatform(world.t);
  otherAdmin = (await createAccount(world.t, otherPlatform, { type: 'admin' })).keypair;
  trustingAdmin = (await createAccount(world.t, otherPlatform, { type: 'admin' })).keypair;
  await world.t.orm.em.fork().nativeUpdate(Account, { id: trustingAdmin.publicKey() }, { trustingPlatforms: [world.platform.publicKey()] });
});

describe('GET /requests/{id}', () => {
  it('shows the requestor its request as a create_lot_requests resource', async () => {
    const request = await fileRequest(world.t, world.user, AUCTION);
    const res = await world.t.client.as(world.user).get(`/requests/${request.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      type: 'create_lot_requests',
      id: request.id,
      attributes: {
        start_price: '1000.00',
        buy_now_price: '5000.00',
        deposit: '100.00',
        min_step: '50.00',
        max_step: '500.00',
        b2b_vehicle_price: null,
        b2c_vehicle_price: null,
        b2c_total_price: '7000.50',
        buy_now_support: true,
        currency: 'USD',
        details: { ...AUCTION.details, odometer_value: 120500, wheel: 'left' },
        start_time: new Date(startTime * 1000).toISOString().replace('.000Z', 'Z'),
        duration: 86400,
        lot_type: 1,
        lot_type_str: 'lot_type_eng',
        hash: request.hash,
        lot_id: null,
        organizer_id: world.user.publicKey(),
        platform_id: world.platform.publicKey(),
        requestor: world.user.publicKey(),
        reviewer: world.platform.publicKey(),
        request_state: 1,
        request_state_str: 'pending',
        reject_reason: '',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      },
    });
    expect(request.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['the platform itself', () => world.platform],
    ['an admin of the platform', () => world.admin],
    ['an admin of another platform that trusts it', () => trustingAdmin],
  ])('shows it to %s', async (_name, who) => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.as(who()).get(`/requests/${request.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(request.id);
  });

  it('converts the prices with ?currency', async () => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.as(world.user).get(`/requests/${request.id}?currency=EUR`);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({
      currency: 'EUR',
      start_price: '925.93',
      buy_now_price: '4629.63',
      deposit: '92.59',
      min_step: '46.30',
      max_step: '462.96',
      hash: request.hash,
    });
  });

  it('answers 401 unsigned', async () => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.get(`/requests/${request.id}`);
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthenticated');
  });

  it.each([
    ['another user of the same platform', () => world.otherUser],
    ['staff of another platform', () => otherAdmin],
    ['another platform', () => otherPlatform],
  ])('answers 404 to %s, as for an unknown request', async (_name, who) => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.as(who()).get(`/requests/${request.id}`);
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('request_not_found');
    const unknown = await world.t.client.as(who()).get('/requests/987654321');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('request_not_found');
  });

  it('answers 400 for a malformed id, an unknown currency and unknown parameters', async () => {
    const request = await fileRequest(world.t, world.user);
    const malformed = await world.t.client.as(world.user).get('/requests/abc');
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].code).toBe('invalid_request_id');
    const currency = await world.t.client.as(world.user).get(`/requests/${request.id}?currency=XYZ`);
    expect(currency.status).toBe(400);
    expect(currency.body.errors[0]).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'currency' } });
    const filter = await world.t.client.as(world.user).get(`/requests/${request.id}?filter[state]=pending`);
    expect(filter.status).toBe(400);
    expect(filter.body.errors[0]).toMatchObject({ code: 'unknown_filter', source: { parameter: 'filter[state]' } });
  });
});

describe('the review hash, recomputed by a client', () => {
  it('matches for an auction with every conversion, and the review accepts it', async () => {
    const request = await fileRequest(world.t, world.user, AUCTION);
    const got = await world.t.client.as(world.admin).get(`/requests/${request.id}`);
    const hash = clientHash(got.body.data.attributes);
    expect(hash).toBe(got.body.data.attributes.hash);

    const review = await world.t.client.as(world.admin).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash, state: 'approved' }));
    expect(review.status).toBe(200);
    expect(review.body.data.attributes).toMatchObject({ request_state: 3, request_state_str: 'approved', lot_id: expect.any(Number) });

    const lot = await world.t.client.get(`/lots/${review.body.data.attributes.lot_id}`);
    expect(lot.status).toBe(200);
    expect(lot.body.data.attributes).toMatchObject({
      organizer_id: world.user.publicKey(),
      publisher_id: world.platform.publicKey(),
      lot_type: 1,
      start_price: '1000.00',
      buy_now_price: '5000.00',
      b2c_total_price: '7000.50',
      start_time: got.body.data.attributes.start_time,
      duration: '86400',
    });
  });

  it('matches for a direct sale without max_step, start_time or duration', async () => {
    const { max_step: _omitted, ...attributes } = DIRECT_SALE;
    const request = await fileRequest(world.t, world.user, attributes);
    const got = await world.t.client.as(world.platform).get(`/requests/${request.id}`);
    expect(got.body.data.attributes).toMatchObject({ lot_type: 0, lot_type_str: 'lot_type_no_auction', max_step: null, start_time: null, duration: null });
    const hash = clientHash(got.body.data.attributes);
    expect(hash).toBe(request.hash);

    const review = await world.t.client.as(world.platform).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash, state: 'approved' }));
    expect(review.status).toBe(200);
    const lot = await world.t.client.get(`/lots/${review.body.data.attributes.lot_id}`);
    expect(lot.body.data.attributes).toMatchObject({ organizer_id: world.user.publicKey(), lot_type: 0, buy_now_price: '12000.00', currency: 'EUR' });
  });
});
