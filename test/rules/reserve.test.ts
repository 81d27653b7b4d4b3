import type { Keypair } from '@stellar/stellar-sdk';
import { Lot } from '../../src/modules/lots/lots.entity';
import { CreateLotRequest } from '../../src/modules/requests/requests.entity';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWith } from '../helpers/world';
import { ready, socketsClosedAfterEach, until } from '../live/support';
import { chooseWinner, join, participantOf } from '../trading/trading.helpers';
import { bid, patchRules, seat, setRules } from './rules.helpers';

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const admin = await createAccount(t, platform, { type: 'admin' });
  const users: CreatedAccount[] = [];
  for (let i = 0; i < 3; i++) users.push(await createAccount(t, platform));
  return { platform, admin, users };
});

const sockets = socketsClosedAfterEach();

/** ENG_LOT (start 1,000, buy now 5,000 USD) with a reserve of 2,160 USD: 2,000 EUR at the shipped rate of 1.08. */
const RESERVED = { ...ENG_LOT, reserve_price: '2160' };

const create = (who: Keypair, attributes: Record<string, unknown>) => world.t.client.as(who).post('/lots', { data: { type: 'lots', attributes } });
const attributesAs = async (lotId: string, who?: Keypair, query = '') => (await (who ? world.t.client.as(who) : world.t.client).get(`/lots/${lotId}${query}`)).body.data.attributes;
const LOT_RESERVE = 'query ($id: ID!, $currency: String) { lot(id: $id, currency: $currency) { reserveMet reservePrice lapsedAt minStep maxStep } }';

describe('reserve_price on a new lot', () => {
  it('shows reserve_met to everyone and the amount to the organizer and platform staff only, converted like every price', async () => {
    const lot = await createLot(world.t, world.platform, RESERVED);
    expect(lot.reservePrice?.toFixed(2)).toBe('2160.00');
    expect(await attributesAs(lot.id, world.platform)).toMatchObject({ reserve_met: false, reserve_price: '2160.00' });
    expect(await attributesAs(lot.id, world.admin.keypair, '?currency=EUR')).toMatchObject({ reserve_met: false, reserve_price: '2000.00', currency: 'EUR' });
    for (const who of [world.users[0].keypair, undefined]) {
      const shown = await attributesAs(lot.id, who);
      expect(shown.reserve_met).toBe(false);
      expect(shown).not.toHaveProperty('reserve_price');
    }
    const otherStaff = await createPlatform(world.t);
    expect(await attributesAs(lot.id, otherStaff)).not.toHaveProperty('reserve_price');
    const listed = await world.t.client.as(world.users[0].keypair).get(`/lots?filter[in]=${lot.id}`);
    expect(listed.body.data[0].attributes).toMatchObject({ reserve_met: false });
    expect(listed.body.data[0].attributes).not.toHaveProperty('reserve_price');
    expect((await world.t.client.as(world.platform).get(`/lots?filter[in]=${lot.id}`)).body.data[0].attributes.reserve_price).toBe('2160.00');

    const asStaff = await world.t.client.as(world.platform).graphql(LOT_RESERVE, { id: lot.id, currency: 'EUR' });
    expect(asStaff.body.data.lot).toMatchObject({ reserveMet: false, reservePrice: '2000.00', lapsedAt: null });
    const asUser = await world.t.client.as(world.users[0].keypair).graphql(LOT_RESERVE, { id: lot.id });
    expect(asUser.body.data.lot).toMatchObject({ reserveMet: false, reservePrice: null });
  });

  it('shows nothing of a reserve on a lot without one (REST attributes absent, GraphQL null)', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const shown = await attributesAs(lot.id, world.platform);
    expect(shown).not.toHaveProperty('reserve_met');
    expect(shown).not.toHaveProperty('reserve_price');
    expect((await world.t.client.as(world.platform).graphql(LOT_RESERVE, { id: lot.id })).body.data.lot).toMatchObject({ reserveMet: null, reservePrice: null });
  });

  it('refuses a reserve at or under the start price, above the buy-now price, or on a direct sale, naming reserve_price', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ENG_LOT, reserve_price: '1000' }, 'must exceed start_price'],
      [{ ...ENG_LOT, reserve_price: '5000.01' }, 'must not exceed buy_now_price'],
      [{ ...ENG_LOT, reserve_price: '12.345' }, 'two decimals'],
      [{ type: 'no_auction', currency: 'EUR', start_price: '0', buy_now_price: '12000', deposit: '0', min_step: '0', reserve_price: '100', details: ENG_LOT.details }, 'auctions only'],
    ];
    for (const [attributes, detail] of cases) {
      const res = await create(world.platform, attributes);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ source: { pointer: '/data/attributes/reserve_price' } });
      expect(res.body.errors[0].detail).toContain(detail);
    }
    const gql = await world.t.client
      .as(world.platform)
      .graphql('mutation ($input: CreateLotInput!) { createLot(input: $input) { lotId } }', {
        input: { type: 'eng', currency: 'USD', startPrice: '1000', buyNowPrice: '5000', deposit: '100', minStep: '50', maxStep: '500', reservePrice: '900', details: ENG_LOT.details },
      });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
    expect(JSON.stringify(gql.body.errors[0].extensions)).toContain('reservePrice');
  });

  it('is set through GraphQL createLot too', async () => {
    const gql = await world.t.client
      .as(world.platform)
      .graphql('mutation ($input: CreateLotInput!) { createLot(input: $input) { lotId } }', {
        input: { type: 'eng', currency: 'USD', startPrice: '1000', buyNowPrice: '5000', deposit: '100', minStep: '50', maxStep: '500', reservePrice: '3000', details: ENG_LOT.details },
      });
    const lotId = gql.body.data.createLot.lotId;
    expect((await world.t.client.as(world.platform).graphql(LOT_RESERVE, { id: lotId })).body.data.lot).toMatchObject({ reserveMet: false, reservePrice: '3000.00' });
  });

  it('travels in a create_lot request, shown to its requestor and reviewer, onto the lot its approval makes', async () => {
    const user = world.users[2];
    expect((await create(user.keypair, RESERVED)).status).toBe(204);
    const [request] = await world.t.orm.em.fork().find(CreateLotRequest, { requestor: user.id }, { orderBy: { id: 'desc' }, limit: 1 });
    expect((await world.t.client.as(user.keypair).get(`/requests/${request.id}`)).body.data.attributes.reserve_price).toBe('2160.00');
    const reviewed = await world.t.client.as(world.admin.keypair).patch(`/requests/${request.id}`, { data: { type: 'reviewable_requests', id: request.id, attributes: { hash: request.hash, state: 'approved' } } });
    expect(reviewed.status).toBe(200);
    const lotId = String(reviewed.body.data.attributes.lot_id);
    expect((await world.t.orm.em.fork().findOneOrFail(Lot, { id: lotId })).reservePrice?.toFixed(2)).toBe('2160.00');
    // The requestor organizes the lot: it sees its reserve; another user does not.
    expect((await attributesAs(lotId, user.keypair)).reserve_price).toBe('2160.00');
    expect(await attributesAs(lotId, world.users[0].keypair)).not.toHaveProperty('reserve_price');
  });
});

describe('PATCH /lots/{id} and updateLot', () => {
  const patch = (who: Keypair, lotId: string, attributes: Record<string, unknown>) => world.t.client.as(who).patch(`/lots/${lotId}`, { data: { type: 'lots', id: lotId, attributes } });

  it('sets, changes and drops the reserve before the first bid, for the organizer and platform staff only', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const set = await patch(world.platform, lot.id, { reserve_price: '2500' });
    expect(set.status).toBe(200);
    expect(set.body.data.attributes).toMatchObject({ reserve_met: false, reserve_price: '2500.00' });
    expect((await patch(world.admin.keypair, lot.id, { reserve_price: '2600.50' })).body.data.attributes.reserve_price).toBe('2600.50');
    expect((await patch(world.users[0].keypair, lot.id, { reserve_price: '1' })).body.errors[0]).toMatchObject({ status: '403', code: 'not_allowed' });
    expect((await world.t.client.patch(`/lots/${lot.id}`, { data: { type: 'lots', id: lot.id, attributes: { reserve_price: '3000' } } })).status).toBe(401);
    const dropped = await patch(world.platform, lot.id, { reserve_price: null });
    expect(dropped.status).toBe(200);
    expect(dropped.body.data.attributes).not.toHaveProperty('reserve_met');
    expect((await world.t.orm.em.fork().findOneOrFail(Lot, { id: lot.id })).reservePrice).toBeNull();
  });

  it('answers 400 naming the field or for an ended lot, 404 for no lot, and 409 lot_has_bids once a bid was accepted', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const low = await patch(world.platform, lot.id, { reserve_price: '999' });
    expect(low.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/reserve_price' } });
    expect(low.body.errors[0].detail).toContain('must exceed start_price');
    expect((await patch(world.platform, lot.id, { reserve_price: 'lots' })).body.errors[0]).toMatchObject({ status: '400', source: { pointer: '/data/attributes/reserve_price' } });
    expect((await patch(world.platform, lot.id, { start_price: '10' })).body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field' });
    expect((await patch(world.platform, '999999', { reserve_price: '3000' })).status).toBe(404);
    const ended = await createLot(world.t, world.platform, ENG_LOT);
    await world.t.orm.em.fork().nativeUpdate(Lot, { id: ended.id }, { endTime: new Date(Date.now() - 1000) });
    expect((await patch(world.platform, ended.id, { reserve_price: '3000' })).body.errors[0]).toMatchObject({ status: '400', code: 'lot_ended' });
    await seat(world.t, lot.id, [world.users[0].id]);
    expect((await bid(world.t, world.users[0].keypair, lot.id, { amount: '1000' })).status).toBe(204);
    expect((await patch(world.platform, lot.id, { reserve_price: '3000' })).body.errors[0]).toMatchObject({ status: '409', code: 'lot_has_bids' });
    const direct = await createLot(world.t, world.platform, { type: 'no_auction', currency: 'EUR', start_price: '0', buy_now_price: '12000', deposit: '0', min_step: '0', details: ENG_LOT.details });
    expect((await patch(world.platform, direct.id, { reserve_price: '100' })).body.errors[0]).toMatchObject({ status: '400', source: { pointer: '/data/attributes/reserve_price' } });
  });

  it('over GraphQL: updateLot sets the reserve and answers the same errors', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const UPDATE = 'mutation ($id: ID!, $input: UpdateLotInput!) { updateLot(id: $id, input: $input) { reserveMet reservePrice } }';
    const set = await world.t.client.as(world.platform).graphql(UPDATE, { id: lot.id, input: { reservePrice: '4000' } });
    expect(set.body.data.updateLot).toEqual({ reserveMet: false, reservePrice: '4000.00' });
    const high = await world.t.client.as(world.platform).graphql(UPDATE, { id: lot.id, input: { reservePrice: '5000.01' } });
    expect(high.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
    expect(JSON.stringify(high.body.errors[0].extensions)).toContain('reservePrice');
    const denied = await world.t.client.as(world.users[0].keypair).graphql(UPDATE, { id: lot.id, input: { reservePrice: '3000' } });
    expect(denied.body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
  });
});

describe('reserve_met', () => {
  it('turns true once the highest bid reaches the reserve, on the lot and in lotUpdated', async () => {
    const lot = await createLot(world.t, world.platform, RESERVED);
    const [a, b] = world.users;
    await seat(world.t, lot.id, [a.id, b.id]);
    const feed = (await sockets.open(world.t, b.keypair)).subscribe<{ reserveMet: boolean; reservePrice: string | null; highestBid: string }>(
      'subscription ($lotId: ID!) { lotUpdated(lotId: $lotId) { reserveMet reservePrice highestBid } }',
      { lotId: lot.id },
    );
    const staffFeed = (await sockets.open(world.t, world.platform)).subscribe<{ reserveMet: boolean; reservePrice: string | null; highestBid: string }>(
      'subscription ($lotId: ID!) { lotUpdated(lotId: $lotId) { reserveMet reservePrice highestBid } }',
      { lotId: lot.id },
    );
    await ready(feed, () => world.t.app.services.live.publishLotChanged(lot.id));
    await ready(staffFeed, () => world.t.app.services.live.publishLotChanged(lot.id));
    expect((await bid(world.t, a.keypair, lot.id, { amount: '1500' })).status).toBe(204);
    expect((await attributesAs(lot.id)).reserve_met).toBe(false);
    // lotUpdated carries the lot as it is when the event is sent: sent after the next bid (a loaded
    // machine, 29 November), the event of this one would show that bid's amount.
    await until(() => feed.events.some((e) => e.highestBid === '1500.00'), 5000, () => `lotUpdated at 1500.00 (got ${JSON.stringify(feed.events)})`);
    expect((await bid(world.t, b.keypair, lot.id, { amount: '2000' })).status).toBe(204);
    expect((await bid(world.t, a.keypair, lot.id, { amount: '2160' })).status).toBe(204);
    expect((await attributesAs(lot.id)).reserve_met).toBe(true);
    await until(() => feed.events.some((e) => e.highestBid === '2160.00'), 5000, () => `lotUpdated at 2160.00 (got ${JSON.stringify(feed.events)})`);
    const last = feed.events.find((e) => e.highestBid === '2160.00');
    // A bidder's subscription: the amount stays hidden.
    expect(last).toEqual({ reserveMet: true, reservePrice: null, highestBid: '2160.00' });
    expect(feed.events.find((e) => e.highestBid === '1500.00')?.reserveMet).toBe(false);
    // The organizer's subscription to the same events shows the amount.
    await until(() => staffFeed.events.some((e) => e.highestBid === '2160.00'), 5000, () => `staff lotUpdated at 2160.00 (got ${JSON.stringify(staffFeed.events)})`);
    expect(staffFeed.events.find((e) => e.highestBid === '2160.00')).toEqual({ reserveMet: true, reservePrice: '2160.00', highestBid: '2160.00' });
  });
});

describe('choosing a winner under the reserve', () => {
  it('needs accept_below_reserve true, else 400 reserve_not_met naming the attribute', async () => {
    const lot = await createLot(world.t, world.platform, { ...RESERVED, deposit: '0' });
    const low = await join(world.t, world.users[0].keypair, lot.id);
    expect((await bid(world.t, world.users[0].keypair, lot.id, { amount: '1500' })).status).toBe(204);
    const refused = await chooseWinner(world.t, world.platform, lot.id, low);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ code: 'reserve_not_met', source: { pointer: '/data/attributes/accept_below_reserve' } });
    expect((await world.t.orm.em.fork().findOneOrFail(Lot, { id: lot.id })).winnerId).toBeNull();
    const badFlag = await world.t.client.as(world.platform).post(`/v2/lots/${lot.id}/winners`, { data: { type: 'participants', id: low.id, attributes: { accept_below_reserve: 'yes' } } });
    expect(badFlag.body.errors[0]).toMatchObject({ status: '400', source: { pointer: '/data/attributes/accept_below_reserve' } });
    const accepted = await world.t.client.as(world.platform).post(`/v2/lots/${lot.id}/winners`, { data: { type: 'participants', id: low.id, attributes: { accept_below_reserve: true } } });
    expect(accepted.status).toBe(200);
    expect((await participantOf(world.t, lot.id, low.accountId)).state).toBe(ParticipantState.Winner);
    expect((await world.t.orm.em.fork().findOneOrFail(Lot, { id: lot.id })).winnerId).toBe(low.accountId);
  });

  it('needs nothing when the bid meets the reserve, nor for a lot without one', async () => {
    const reserved = await createLot(world.t, world.platform, { ...RESERVED, deposit: '0' });
    const high = await join(world.t, world.users[1].keypair, reserved.id);
    expect((await bid(world.t, world.users[1].keypair, reserved.id, { amount: '2160' })).status).toBe(204);
    expect((await chooseWinner(world.t, world.platform, reserved.id, high)).status).toBe(200);
    const plain = await createLot(world.t, world.platform, { ...ENG_LOT, deposit: '0' });
    const nobody = await join(world.t, world.users[1].keypair, plain.id);
    expect((await chooseWinner(world.t, world.platform, plain.id, nobody)).status).toBe(200);
  });

  it('over GraphQL: chooseWinner answers reserve_not_met without acceptBelowReserve, and chooses with it', async () => {
    const lot = await createLot(world.t, world.platform, { ...RESERVED, deposit: '0' });
    const p = await join(world.t, world.users[2].keypair, lot.id);
    const CHOOSE = 'mutation ($lotId: ID!, $id: ID!, $accept: Boolean) { chooseWinner(lotId: $lotId, participantId: $id, acceptBelowReserve: $accept) { id state } }';
    const refused = await world.t.client.as(world.platform).graphql(CHOOSE, { lotId: lot.id, id: p.id });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'reserve_not_met', status: 400 });
    expect(JSON.stringify(refused.body.errors[0].extensions)).toContain('acceptBelowReserve');
    const chosen = await world.t.client.as(world.platform).graphql(CHOOSE, { lotId: lot.id, id: p.id, accept: true });
    expect(chosen.body.data.chooseWinner).toMatchObject({ id: p.id });
  });
});

describe('reserve_lapse_after', () => {
  it('is a versioned platform rule, read and set over REST and GraphQL', async () => {
    const platform = await createPlatform(world.t);
    const set = await patchRules(world.t, platform, platform.publicKey(), { reserve_lapse_after: 86400 });
    expect(set.body.data.attributes).toMatchObject({ version: 1, reserve_lapse_after: 86400 });
    const bad = await patchRules(world.t, platform, platform.publicKey(), { reserve_lapse_after: 0 });
    expect(bad.body.errors[0]).toMatchObject({ status: '400', source: { pointer: '/data/attributes/reserve_lapse_after' } });
    const changed = await world.t.client
      .as(platform)
      .graphql('mutation ($id: ID!) { updatePlatformRules(platformId: $id, rules: { reserveLapseAfter: null }) { version reserveLapseAfter } }', { id: platform.publicKey() });
    expect(changed.body.data.updatePlatformRules).toEqual({ version: 2, reserveLapseAfter: null });
  });
});

describe('the steps a lot shows under an increment table', () => {
  it('are the band of the current price, in REST and GraphQL, and the bid check holds bids to them', async () => {
    const platform = await createPlatform(world.t);
    const bidders = [await createAccount(world.t, platform), await createAccount(world.t, platform)];
    await setRules(world.t, platform, { increments: [{ up_to: '1000', min_step: '25' }, { up_to: '5000', min_step: '50', max_step: '1000' }, { up_to: null, min_step: '100' }] });
    const lot = await createLot(world.t, platform, ENG_LOT);
    await seat(world.t, lot.id, bidders.map((b) => b.id));
    const shown = async () => {
      const rest = await attributesAs(lot.id);
      const gql = (await world.t.client.graphql(LOT_RESERVE, { id: lot.id })).body.data.lot;
      expect({ min: gql.minStep, max: gql.maxStep }).toEqual({ min: rest.min_step, max: rest.max_step });
      return { min: rest.min_step as string, max: rest.max_step as string, highest: rest.highest_bid as string };
    };
    // Before the first bid: the start price's band (1,000: 25), with the lot's own max_step (500).
    expect(await shown()).toEqual({ min: '25.00', max: '500.00', highest: '0.00' });
    expect((await bid(world.t, bidders[0].keypair, lot.id, { amount: '1000' })).status).toBe(204);
    expect(await shown()).toEqual({ min: '25.00', max: '500.00', highest: '1000.00' });
    expect((await bid(world.t, bidders[1].keypair, lot.id, { amount: '1024.99' })).body.errors[0].code).toBe('bid_too_low');
    expect((await bid(world.t, bidders[1].keypair, lot.id, { amount: '1025' })).status).toBe(204);
    // Above 1,000 the band steps by 50 and at most 1,000: the shown steps bound the next bid exactly.
    const next = await shown();
    expect(next).toEqual({ min: '50.00', max: '1000.00', highest: '1025.00' });
    expect((await bid(world.t, bidders[0].keypair, lot.id, { amount: '1074.99' })).body.errors[0].code).toBe('bid_too_low');
    expect((await bid(world.t, bidders[0].keypair, lot.id, { amount: '2025.01' })).body.errors[0].code).toBe('bid_step_invalid');
    expect((await bid(world.t, bidders[0].keypair, lot.id, { amount: '2025' })).status).toBe(204);
    // The list shows the same.
    const listed = await world.t.client.get(`/lots?filter[in]=${lot.id}`);
    expect(listed.body.data[0].attributes).toMatchObject({ min_step: '50.00', max_step: '1000.00' });
  });

  it('stay the lot own steps for a lot without a table', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    expect(await attributesAs(lot.id)).toMatchObject({ min_step: '50.00', max_step: '500.00' });
  });
});
