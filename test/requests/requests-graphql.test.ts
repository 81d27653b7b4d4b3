import type { Keypair } from '@stellar/stellar-sdk';
import { Lot } from '../../src/modules/lots/lots.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { appWithRequestors, clientHash, fileRequest } from './requests.helpers';

const world = appWithRequestors();
let otherAdmin: Keypair;
beforeAll(async () => {
  otherAdmin = (await createAccount(world.t, await createPlatform(world.t), { type: 'admin' })).keypair;
});

const FIELDS = `id requestState requestStateStr requestor reviewer platformId organizerId lotId lotType lotTypeStr currency
  startPrice buyNowPrice buyNowSupport deposit minStep maxStep b2bVehiclePrice b2cVehiclePrice b2cTotalPrice
  startTime duration details hash rejectReason createdAt updatedAt`;
const GET = `query($id: ID!, $currency: String) { request(id: $id, currency: $currency) { ${FIELDS} } }`;
const LIST = `query($state: [String!], $archived: Boolean, $requestor: String, $sort: String, $page: Int, $size: Int, $type: String) {
  requests(state: $state, archived: $archived, requestor: $requestor, sort: $sort, page: $page, size: $size, type: $type) { totalItems page size items { id requestStateStr } } }`;
const OF_ACCOUNT = `query($accountId: String!, $state: [String!]) {
  accountCreateLotRequests(accountId: $accountId, state: $state) { totalItems items { id requestor } } }`;
const REVIEW = `mutation($id: ID!, $hash: String!, $state: String!, $rejectReason: String) {
  reviewRequest(id: $id, hash: $hash, state: $state, rejectReason: $rejectReason) { id requestState requestStateStr lotId rejectReason } }`;
const CANCEL = `mutation($id: ID!) { cancelRequest(id: $id) }`;

const errorOf = (res: { body: { errors: any[] } }) => ({ code: res.body.errors[0].extensions.code, status: res.body.errors[0].extensions.status });

describe('GraphQL request and requests', () => {
  it('reads a request with the same fields as REST, converted on demand', async () => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.as(world.user).graphql(GET, { id: request.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.request).toMatchObject({
      id: request.id,
      requestState: 1,
      requestStateStr: 'pending',
      requestor: world.user.publicKey(),
      reviewer: world.platform.publicKey(),
      organizerId: world.user.publicKey(),
      lotId: null,
      lotType: 1,
      lotTypeStr: 'lot_type_eng',
      currency: 'USD',
      startPrice: '1000.00',
      maxStep: '500.00',
      buyNowSupport: true,
      duration: 86400,
      startTime: null,
      hash: request.hash,
      rejectReason: '',
      details: expect.objectContaining({ maker: 'Toyota', model: 'Camry' }),
    });
    const rest = await world.t.client.as(world.user).get(`/requests/${request.id}`);
    expect(clientHash(rest.body.data.attributes)).toBe(res.body.data.request.hash);
    const converted = await world.t.client.as(world.admin).graphql(GET, { id: request.id, currency: 'EUR' });
    expect(converted.body.data.request).toMatchObject({ currency: 'EUR', startPrice: '925.93' });
  });

  it('answers the REST codes: unauthenticated, request_not_found, invalid_request_id, invalid_field', async () => {
    const request = await fileRequest(world.t, world.user);
    expect(errorOf(await world.t.client.graphql(GET, { id: request.id }))).toEqual({ code: 'unauthenticated', status: 401 });
    expect(errorOf(await world.t.client.as(world.otherUser).graphql(GET, { id: request.id }))).toEqual({ code: 'request_not_found', status: 404 });
    expect(errorOf(await world.t.client.as(otherAdmin).graphql(GET, { id: request.id }))).toEqual({ code: 'request_not_found', status: 404 });
    expect(errorOf(await world.t.client.as(world.user).graphql(GET, { id: 'abc' }))).toEqual({ code: 'invalid_request_id', status: 400 });
    const page = await world.t.client.as(world.user).graphql(LIST, { size: 101 });
    expect(errorOf(page)).toEqual({ code: 'invalid_field', status: 400 });
    expect(page.body.errors[0].extensions.errors[0].field).toBe('size');
    expect(errorOf(await world.t.client.as(world.user).graphql(LIST, { state: ['open'] }))).toEqual({ code: 'invalid_field', status: 400 });
    expect(errorOf(await world.t.client.as(world.user).graphql(LIST, { sort: 'price' }))).toEqual({ code: 'invalid_field', status: 400 });
    expect(errorOf(await world.t.client.as(world.user).graphql(LIST, { type: 'accounts' }))).toEqual({ code: 'invalid_field', status: 400 });
    expect(errorOf(await world.t.client.graphql(LIST, {}))).toEqual({ code: 'unauthenticated', status: 401 });
  });

  it('lists with filters, sort and number/size pages', async () => {
    const someone = (await createAccount(world.t, world.platform)).keypair;
    const a = await fileRequest(world.t, someone);
    const b = await fileRequest(world.t, someone);
    const c = await fileRequest(world.t, someone);
    const mine = await world.t.client.as(someone).graphql(LIST, { sort: 'created_at', page: 1, size: 2, type: 'lots' });
    expect(mine.body.data.requests).toEqual({ totalItems: 3, page: 1, size: 2, items: [{ id: c.id, requestStateStr: 'pending' }] });
    const newest = await world.t.client.as(someone).graphql(LIST, {});
    expect(newest.body.data.requests.items.map((i: any) => i.id)).toEqual([c.id, b.id, a.id]);
    const staff = await world.t.client.as(world.admin).graphql(LIST, { requestor: someone.publicKey(), state: ['pending'] });
    expect(staff.body.data.requests.totalItems).toBe(3);
    const none = await world.t.client.as(world.admin).graphql(LIST, { requestor: someone.publicKey(), state: ['approved'] });
    expect(none.body.data.requests).toMatchObject({ totalItems: 0, items: [] });
    const archived = await world.t.client.as(world.admin).graphql(LIST, { requestor: someone.publicKey(), archived: false });
    expect(archived.body.data.requests.totalItems).toBe(3);
  });

  it('lists an account\'s requests for itself and its staff only', async () => {
    const request = await fileRequest(world.t, world.otherUser);
    const own = await world.t.client.as(world.otherUser).graphql(OF_ACCOUNT, { accountId: world.otherUser.publicKey() });
    expect(own.body.data.accountCreateLotRequests.items).toContainEqual({ id: request.id, requestor: world.otherUser.publicKey() });
    const staff = await world.t.client.as(world.admin).graphql(OF_ACCOUNT, { accountId: world.otherUser.publicKey(), state: ['canceled'] });
    expect(staff.body.data.accountCreateLotRequests).toEqual({ totalItems: 0, items: [] });
    expect(errorOf(await world.t.client.as(world.user).graphql(OF_ACCOUNT, { accountId: world.otherUser.publicKey() }))).toEqual({ code: 'not_allowed', status: 403 });
    expect(errorOf(await world.t.client.as(world.user).graphql(OF_ACCOUNT, { accountId: 'G'.padEnd(56, 'A') }))).toEqual({ code: 'account_not_found', status: 404 });
  });
});

describe('GraphQL reviewRequest and cancelRequest', () => {
  it('approves through the same service: the lot has the requestor as organizer', async () => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.as(world.admin).graphql(REVIEW, { id: request.id, hash: request.hash, state: 'approved' });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.reviewRequest).toMatchObject({ id: request.id, requestState: 3, requestStateStr: 'approved', lotId: expect.any(String) });
    const lot = await world.t.orm.em.fork().findOneOrFail(Lot, { id: res.body.data.reviewRequest.lotId });
    expect(lot.organizerId).toBe(world.user.publicKey());
    expect(lot.publisherId).toBe(world.platform.publicKey());
    const again = await world.t.client.as(world.admin).graphql(REVIEW, { id: request.id, hash: request.hash, state: 'rejected' });
    expect(errorOf(again)).toEqual({ code: 'request_not_pending', status: 400 });
  });

  it('rejects with a reason', async () => {
    const request = await fileRequest(world.t, world.user);
    const res = await world.t.client.as(world.platform).graphql(REVIEW, { id: request.id, hash: request.hash, state: 'rejected', rejectReason: 'blurry photos' });
    expect(res.body.data.reviewRequest).toMatchObject({ requestState: 4, rejectReason: 'blurry photos', lotId: null });
  });

  it('answers the review codes', async () => {
    const request = await fileRequest(world.t, world.user);
    const vars = { id: request.id, hash: request.hash, state: 'approved' };
    expect(errorOf(await world.t.client.graphql(REVIEW, vars))).toEqual({ code: 'unauthenticated', status: 401 });
    expect(errorOf(await world.t.client.as(world.admin).graphql(REVIEW, { ...vars, id: '987654321' }))).toEqual({ code: 'request_not_found', status: 404 });
    expect(errorOf(await world.t.client.as(otherAdmin).graphql(REVIEW, vars))).toEqual({ code: 'request_not_found', status: 404 });
    expect(errorOf(await world.t.client.as(world.user).graphql(REVIEW, vars))).toEqual({ code: 'not_allowed', status: 403 });
    expect(errorOf(await world.t.client.as(world.admin).graphql(REVIEW, { ...vars, hash: 'f'.repeat(64) }))).toEqual({ code: 'hash_mismatch', status: 400 });
    const state = await world.t.client.as(world.admin).graphql(REVIEW, { ...vars, state: 'pending' });
    expect(errorOf(state)).toEqual({ code: 'invalid_field', status: 400 });
    expect(state.body.errors[0].extensions.errors[0].field).toBe('state');
  });

  it('cancels for the requestor, with the cancel codes', async () => {
    const request = await fileRequest(world.t, world.user);
    expect(errorOf(await world.t.client.graphql(CANCEL, { id: request.id }))).toEqual({ code: 'unauthenticated', status: 401 });
    expect(errorOf(await world.t.client.as(world.user).graphql(CANCEL, { id: '987654321' }))).toEqual({ code: 'request_not_found', status: 404 });
    expect(errorOf(await world.t.client.as(world.admin).graphql(CANCEL, { id: request.id }))).toEqual({ code: 'not_allowed', status: 403 });
    const res = await world.t.client.as(world.user).graphql(CANCEL, { id: request.id });
    expect(res.body).toEqual({ data: { cancelRequest: true } });
    const got = await world.t.client.as(world.user).graphql(GET, { id: request.id });
    expect(got.body.data.request).toMatchObject({ requestState: 2, requestStateStr: 'canceled' });
    expect(errorOf(await world.t.client.as(world.user).graphql(CANCEL, { id: request.id }))).toEqual({ code: 'request_not_cancelable', status: 400 });
  });
});
