import type { Keypair } from '@stellar/stellar-sdk';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';

let t: TestApp;
let platform: Keypair;
let bidder: CreatedAccount;
let stranger: CreatedAccount;
let auctionId: string;
let saleId: string;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  bidder = await createAccount(t, platform);
  stranger = await createAccount(t, platform);
  auctionId = (await createLot(t, platform, ENG_LOT)).id;
  saleId = (await createLot(t, platform, DIRECT_SALE)).id;
  const em = t.orm.em.fork();
  em.create(Participant, { lotId: auctionId, accountId: bidder.id, state: ParticipantState.Pending });
  em.create(Participant, { lotId: auctionId, accountId: stranger.id, state: ParticipantState.DepositPending });
  await em.flush();
});
afterAll(() => t.close());

describe('lots over GraphQL', () => {
  it('reads a lot with prices in another currency', async () => {
    const res = await t.client.graphql('query($id: ID!) { lot(id: $id, currency: "USD") { id lotTypeStr currency buyNowPrice startPrice details } }', { id: saleId });
    expect(res.body.data.lot).toMatchObject({ id: saleId, lotTypeStr: 'lot_type_no_auction', currency: 'USD', buyNowPrice: '12960.00', startPrice: '0.00' });
    expect(res.body.data.lot.details.maker).toBe('BMW');
  });

  it('answers an unknown lot with lot_not_found', async () => {
    const res = await t.client.graphql('{ lot(id: "99999") { id } }');
    expect(res.body.errors[0].extensions).toEqual({ code: 'lot_not_found', status: 404 });
  });

  it('filters, sorts and pages with the REST semantics', async () => {
    const first = await t.client.graphql('{ lots(first: 1, sort: {key: price, desc: true}) { nodes { id } pageInfo { hasNextPage hasPreviousPage endCursor } } }');
    expect(first.body.data.lots.nodes).toEqual([{ id: saleId }]);
    expect(first.body.data.lots.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = await t.client.graphql('query($after: String) { lots(first: 1, after: $after, sort: {key: price, desc: true}) { nodes { id } pageInfo { hasNextPage } } }', {
      after: first.body.data.lots.pageInfo.endCursor,
    });
    expect(second.body.data.lots).toEqual({ nodes: [{ id: auctionId }], pageInfo: { hasNextPage: false } });
    const filtered = await t.client.graphql('{ lots(filter: {lotType: ["eng"], year: {min: 2010, max: 2019}}) { nodes { id } } lotsCount(filter: {maker: "bmw"}) }');
    expect(filtered.body.data).toEqual({ lots: { nodes: [{ id: auctionId }] }, lotsCount: 1 });
  });

  it('matches vocabulary filters in any letter case, and fuel by its enum id', async () => {
    const res = await t.client.graphql(
      '{ diesel: lotsCount(filter: {fuel: ["DIESEL"]}) gas: lots(filter: {fuel: ["GASOLINE"], wheel: "Left", transmission: "automatic", lotType: ["ENG"]}) { nodes { id } } }',
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({ diesel: 1, gas: { nodes: [{ id: auctionId }] } });
  });

  it('refuses a malformed filter with the parameter it names', async () => {
    const res = await t.client.graphql('{ lotsCount(filter: {year: {min: 2020, max: 2010}}) }');
    expect(res.body.errors[0].extensions.code).toBe('invalid_parameter');
  });

  it('shows participants to the organizer, and to a user only their own', async () => {
    const q = `query($id: ID!) { lot(id: $id) { participants { accountId stateStr } organizer { id } } }`;
    const staff = await t.client.as(platform).graphql(q, { id: auctionId });
    expect(staff.body.data.lot.participants.map((p: any) => p.stateStr)).toEqual(['pending', 'deposit_pending']);
    const own = await t.client.as(bidder.keypair).graphql(q, { id: auctionId });
    expect(own.body.data.lot.participants).toEqual([{ accountId: bidder.id, stateStr: 'pending' }]);
    const anonymous = await t.client.graphql(q, { id: auctionId });
    expect(anonymous.body.data.lot.participants).toEqual([]);
    expect(anonymous.body.data.lot.organizer.id).toBe(platform.publicKey());
  });

  it('creates a lot for staff and a request for a user', async () => {
    const mutation = 'mutation($input: CreateLotInput!) { createLot(input: $input) { lotId requestId } }';
    const input = { type: 'eng', currency: 'EUR', startPrice: '100', buyNowPrice: '0', deposit: '0', minStep: '10', maxStep: '20', details: { country: 'GEO', year: 2019, maker: 'Kia', model: 'Rio' } };
    const staff = await t.client.as(platform).graphql(mutation, { input });
    expect(staff.body.data.createLot).toEqual({ lotId: expect.any(String), requestId: null });
    const user = await t.client.as(bidder.keypair).graphql(mutation, { input });
    expect(user.body.data.createLot).toEqual({ lotId: null, requestId: expect.any(String) });
    const bad = await t.client.as(platform).graphql(mutation, { input: { ...input, maxStep: '5' } });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400, errors: [{ field: 'maxStep' }] });
  });
});
