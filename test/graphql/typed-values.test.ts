import { Money } from '../../src/core/money';
import { Bid } from '../../src/modules/bids/bids.entity';
import { Lot } from '../../src/modules/lots/lots.entity';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

// Typed values of a lot: enums, Money converted by field (as REST converts), the vehicle.

const world = appWithPlatform();
/** Amounts whose conversions round: each currency's result is checked to the cent against REST. */
const PRICED = { ...ENG_LOT, start_price: '1234.57', buy_now_price: '9876.55', deposit: '100.05', min_step: '50.01', max_step: '500.99', reserve_price: '3333.33' };
let lotId: string;
let bidder: CreatedAccount;

beforeAll(async () => {
  const { t, platform } = world;
  lotId = String((await createLot(t, platform, PRICED)).id);
  bidder = await createAccount(t, platform);
  const em = t.orm.em.fork();
  const participant = em.create(Participant, { lotId, accountId: bidder.id, state: ParticipantState.Pending });
  await em.flush();
  em.create(Bid, { lotId, participantId: participant.id, accountId: bidder.id, amount: new Money('1300.01') });
  await em.flush();
  await em.nativeUpdate(Lot, { id: lotId }, { highestBid: new Money('1300.01') });
});

const gql = (query: string, variables?: Record<string, unknown>) => world.t.client.graphql(query, variables);

describe('Money', () => {
  it('holds the lot’s own amounts exactly, and converts each to the cent as REST shows the lot in that currency', async () => {
    const res = await gql(
      `query($id: ID!) { lot(id: $id) { prices {
        start { amount currency eur: in(currency: EUR) { amount currency } gel: in(currency: GEL) { amount } btc: in(currency: BTC) { amount } usd: in(currency: USD) { amount } }
        buyNow { amount eur: in(currency: EUR) { amount } gel: in(currency: GEL) { amount } }
        deposit { amount eur: in(currency: EUR) { amount } gel: in(currency: GEL) { amount } }
        minStep { amount eur: in(currency: EUR) { amount } }
        maxStep { amount eur: in(currency: EUR) { amount } }
        highestBid { amount eur: in(currency: EUR) { amount } gel: in(currency: GEL) { amount } }
      } } }`,
      { id: lotId },
    );
    expect(res.body.errors).toBeUndefined();
    const p = res.body.data.lot.prices;
    expect(p.start).toMatchObject({ amount: '1234.57', currency: 'USD', eur: { currency: 'EUR' }, usd: { amount: '1234.57' } });
    expect([p.buyNow.amount, p.deposit.amount, p.minStep.amount, p.maxStep.amount, p.highestBid.amount]).toEqual(['9876.55', '100.05', '50.01', '500.99', '1300.01']);
    for (const [currency, key] of [['EUR', 'eur'], ['GEL', 'gel']] as const) {
      const rest = (await world.t.client.get(`/lots/${lotId}?currency=${currency}`)).body.data.attributes;
      expect(p.start[key].amount).toBe(rest.start_price);
      expect(p.buyNow[key].amount).toBe(rest.buy_now_price);
      expect(p.deposit[key].amount).toBe(rest.deposit);
      expect(p.highestBid[key].amount).toBe(rest.highest_bid);
      if (key === 'eur') expect([p.minStep.eur.amount, p.maxStep.eur.amount]).toEqual([rest.min_step, rest.max_step]);
    }
    const btc = (await world.t.client.get(`/lots/${lotId}?currency=BTC`)).body.data.attributes;
    expect(p.start.btc.amount).toBe(btc.start_price);
    // A conversion that rounds: the amounts are exact decimals with two places, never floats.
    for (const amount of [p.start.eur.amount, p.start.gel.amount, p.deposit.gel.amount]) expect(amount).toMatch(/^\d+\.\d\d$/);
  });

  it('keeps one identity for the lot however its prices are read: the Money values are the lot’s own in both answers', async () => {
    const res = await gql(
      `query($id: ID!) {
        usd: lot(id: $id) { __typename id prices { start { amount currency } } }
        eur: lot(id: $id, currency: "EUR") { __typename id startPrice prices { start { amount currency in(currency: EUR) { amount } } } }
      }`,
      { id: lotId },
    );
    const { usd, eur } = res.body.data;
    // A normalised cache keys both as Lot:<id>: what it stores under that key must be the same.
    expect(`${usd.__typename}:${usd.id}`).toBe(`${eur.__typename}:${eur.id}`);
    expect(eur.prices.start).toMatchObject(usd.prices.start);
    expect(eur.prices.start.in.amount).toBe(eur.startPrice);
  });

  it('shows the reserve to the lot’s organizer only, as `reservePrice` does', async () => {
    const query = `query($id: ID!) { lot(id: $id) { reservePrice prices { reserve { amount currency } } } }`;
    const organizer = await world.t.client.as(world.platform).graphql(query, { id: lotId });
    expect(organizer.body.data.lot).toEqual({ reservePrice: '3333.33', prices: { reserve: { amount: '3333.33', currency: 'USD' } } });
    for (const client of [world.t.client, world.t.client.as(bidder.keypair)]) {
      const other = await client.graphql(query, { id: lotId });
      expect(other.body.data.lot).toEqual({ reservePrice: null, prices: { reserve: null } });
    }
    // Converted, it stays hidden: a lot asked in another currency redacts it alike.
    const eur = await gql(`query($id: ID!) { lot(id: $id, currency: "EUR") { prices { reserve { amount } } } }`, { id: lotId });
    expect(eur.body.data.lot.prices.reserve).toBeNull();
  });

  it('refuses a currency outside the enum before anything runs', async () => {
    const res = await gql(`query($id: ID!) { lot(id: $id) { prices { start { in(currency: XYZ) { amount } } } } }`, { id: lotId });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('graphql_validation_failed');
    const variable = await gql(`query($id: ID!, $c: Currency!) { lot(id: $id) { prices { start { in(currency: $c) { amount } } } } }`, { id: lotId, c: 'usd' });
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].extensions.code).toBe('bad_user_input');
  });
});

describe('enums and the vehicle', () => {
  it('answers the lot’s state, status and type as enums, agreeing with the old codes', async () => {
    const res = await gql(`query($id: ID!) { lot(id: $id) { state status type lotState lotType } }`, { id: lotId });
    expect(res.body.data.lot).toEqual({ state: 'PENDING', status: 'LIVE', type: 'ENG', lotState: 1, lotType: 1 });
  });

  it('types the vehicle’s details under GraphQL names', async () => {
    const res = await gql(`query($id: ID!) { lot(id: $id) { vehicle { country year maker model vin fuelType wheel transmission registered hdImages video } } }`, { id: lotId });
    expect(res.body.data.lot.vehicle).toEqual({
      country: 'GEO', year: 2018, maker: 'Toyota', model: 'Camry', vin: '4T1BF1FK5CU123456', fuelType: 'gas', wheel: 'left', transmission: 'AUTOMATIC', registered: null, hdImages: [], video: null,
    });
  });
});
