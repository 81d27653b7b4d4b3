import { Lot, LotState } from '../../src/modules/lots/lots.entity';
import { NotificationType as N } from '../../src/modules/notifications/notifications.entity';
import { SecondChanceOffer } from '../../src/modules/offers/offers.entity';
import { ParticipantState, WinnerDetails } from '../../src/modules/trading/trading.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { appWithPlatform } from '../helpers/world';
import { expected, notificationsOf } from '../jobs/jobs.helpers';
import { setRules } from '../rules/rules.helpers';
import { codeOf, FREE_LOT, lotRow, participantOf, putWinnerDetails } from '../trading/trading.helpers';
import { answer, canceledDeal, offer, offered, offerPath, wonLot } from './offers.helpers';

const world = appWithPlatform({ accounts: 4 });
const keys = () => world.accounts.map((a) => a.keypair);

describe('POST /lots/{id}/second_chance_offers', () => {
  it("offers a canceled deal's lot to the highest other bidder at its own highest bid; accepting makes it the winner", async () => {
    const [a, b, c] = keys();
    const { lot, bidders } = await canceledDeal(world.t, world.platform, [a, b, c]);
    const before = Date.now();
    const res = await offer(world.t, world.platform, lot.id);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      type: 'second_chance_offers',
      attributes: { lot_id: Number(lot.id), participant_id: Number(bidders[1].id), account_id: b.publicKey(), amount: '1050.00', currency: 'USD', state: 'open', offered_by: world.platform.publicKey(), answered_at: null },
    });
    // No rules on the lot: open for 48 hours.
    const expiresAt = Date.parse(res.body.data.attributes.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 48 * 3600 * 1000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 48 * 3600 * 1000 + 1000);
    const offerId = res.body.data.id;
    const told = (await notificationsOf(world.t, [N.SecondChanceOffered])).filter((n) => n.meta.lot_id === lot.id);
    expect(told).toEqual([{ recipient: b.publicKey(), type: N.SecondChanceOffered, meta: { lot_id: lot.id, offer_id: offerId, amount: '1050.00', currency: 'USD', expires_at: res.body.data.attributes.expires_at } }]);

    const listed = await world.t.client.as(b).get(offerPath(lot.id));
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([res.body.data]);
    expect((await world.t.client.as(world.platform).get(offerPath(lot.id))).body.data).toEqual([res.body.data]);

    const accepted = await answer(world.t, b, lot.id, offerId, 'accepted');
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.attributes).toMatchObject({ state: 'accepted', answered_at: expect.any(String) });
    expect((await lotRow(world.t, lot.id)).winnerId).toBe(b.publicKey());
    expect((await participantOf(world.t, lot.id, b.publicKey())).state).toBe(ParticipantState.Winner);
    expect((await participantOf(world.t, lot.id, c.publicKey())).state).toBe(ParticipantState.DealCanceled);
    expect((await participantOf(world.t, lot.id, a.publicKey())).state).toBe(ParticipantState.Lost);
    // The new deal starts afresh: the canceled one's details are gone, and it can be canceled in turn.
    expect(await world.t.orm.em.fork().findOneOrFail(WinnerDetails, { lotId: lot.id })).toMatchObject({ dealCanceled: null, invoiceId: null });
    const answered = (await notificationsOf(world.t, [N.SecondChanceAnswered, N.Winner])).filter((n) => n.meta.lot_id === lot.id);
    expect(answered).toEqual(
      expected([
        { recipient: c.publicKey(), type: N.Winner, meta: { lot_id: lot.id } },
        { recipient: b.publicKey(), type: N.Winner, meta: { lot_id: lot.id } },
        { recipient: world.platform.publicKey(), type: N.SecondChanceAnswered, meta: { lot_id: lot.id, offer_id: offerId, account_id: b.publicKey(), state: 'accepted' } },
      ]),
    );
    expect((await putWinnerDetails(world.t, world.platform, lot.id, { deal_canceled: true })).status).toBe(200);
    expect((await participantOf(world.t, lot.id, b.publicKey())).state).toBe(ParticipantState.DealCanceled);
    const next = await offer(world.t, world.platform, lot.id);
    expect(next.body.data.attributes).toMatchObject({ account_id: a.publicKey(), amount: '1000.00' });
  });

  it('offers to the bidder account_id names; after a decline, to the next; then no bidder is left', async () => {
    const [a, b, c] = keys();
    const { lot } = await canceledDeal(world.t, world.platform, [a, b, c]);
    const named = await offer(world.t, world.platform, lot.id, { account_id: a.publicKey(), expires_in: 600 });
    expect(named.status).toBe(201);
    expect(named.body.data.attributes).toMatchObject({ account_id: a.publicKey(), amount: '1000.00' });
    expect(Date.parse(named.body.data.attributes.expires_at)).toBeLessThanOrEqual(Date.now() + 601_000);
    const declined = await answer(world.t, a, lot.id, named.body.data.id, 'declined');
    expect(declined.body.data.attributes.state).toBe('declined');
    expect((await participantOf(world.t, lot.id, a.publicKey())).state).toBe(ParticipantState.Lost);
    expect((await lotRow(world.t, lot.id)).winnerId).toBe(c.publicKey());
    const told = (await notificationsOf(world.t, [N.SecondChanceAnswered])).filter((n) => n.meta.lot_id === lot.id);
    expect(told).toEqual([{ recipient: world.platform.publicKey(), type: N.SecondChanceAnswered, meta: { lot_id: lot.id, offer_id: named.body.data.id, account_id: a.publicKey(), state: 'declined' } }]);

    const again = await offer(world.t, world.platform, lot.id, { account_id: a.publicKey() });
    expect(again.body.errors[0]).toMatchObject({ status: '400', code: 'second_chance_bidder_ineligible', source: { pointer: '/data/attributes/account_id' } });
    const next = await offered(world.t, world.platform, lot.id);
    expect((await answer(world.t, b, lot.id, next, 'declined')).status).toBe(200);
    const none = await offer(world.t, world.platform, lot.id);
    expect(none.body.errors[0]).toMatchObject({ status: '400', code: 'no_second_chance_bidder' });
  });

  it('is for the organizer and staff: 401 unsigned, 403 for a bidder or another platform', async () => {
    const [a, b] = keys();
    const { lot } = await canceledDeal(world.t, world.platform, [a, b]);
    expect((await world.t.client.post(offerPath(lot.id), { data: { type: 'second_chance_offers', attributes: {} } })).status).toBe(401);
    expect((await offer(world.t, a, lot.id)).body.errors[0]).toMatchObject({ status: '403', code: 'not_allowed' });
    expect((await offer(world.t, await createPlatform(world.t), lot.id)).body.errors[0]).toMatchObject({ status: '403', code: 'not_allowed' });
    const admin = await createAccount(world.t, world.platform, { type: 'admin' });
    expect((await offer(world.t, admin.keypair, lot.id)).status).toBe(201);
    expect(codeOf(await offer(world.t, world.platform, '999999'))).toBe('lot_not_found');
  });

  it('needs a canceled deal on an open lot: 400 second_chance_not_allowed', async () => {
    const [a, b] = keys();
    const { lot } = await wonLot(world.t, world.platform, [a, b]);
    expect((await offer(world.t, world.platform, lot.id)).body.errors[0]).toMatchObject({ status: '400', code: 'second_chance_not_allowed' });
    expect((await putWinnerDetails(world.t, world.platform, lot.id, { deal_canceled: true })).status).toBe(200);
    await world.t.orm.em.fork().nativeUpdate(Lot, { id: lot.id }, { lotState: LotState.Finished });
    expect(codeOf(await offer(world.t, world.platform, lot.id))).toBe('second_chance_not_allowed');
  });

  it('keeps one offer open at a time: 409 second_chance_offer_open', async () => {
    const [a, b, c] = keys();
    const { lot } = await canceledDeal(world.t, world.platform, [a, b, c]);
    await offered(world.t, world.platform, lot.id);
    expect((await offer(world.t, world.platform, lot.id, { account_id: a.publicKey() })).body.errors[0]).toMatchObject({ status: '409', code: 'second_chance_offer_open' });
  });

  it("bounds expires_in by the lot's second_chance_ttl (48 hours when unset) and names the field; the winner pays the lot's buyer's fee", async () => {
    const [a, b] = keys();
    const { lot } = await canceledDeal(world.t, world.platform, [a, b]);
    const long = await offer(world.t, world.platform, lot.id, { expires_in: 48 * 3600 + 1 });
    expect(long.body.errors[0]).toMatchObject({ status: '400', code: 'second_chance_ttl_exceeded', source: { pointer: '/data/attributes/expires_in' } });
    const bad = await offer(world.t, world.platform, lot.id, { expires_in: 'soon' });
    expect(bad.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/expires_in' } });

    const ruled = await createPlatform(world.t);
    await setRules(world.t, ruled, { second_chance_ttl: 3600, buyer_fees: [{ up_to: null, fixed: '10', percent: '10' }] });
    const bidders = [await createAccount(world.t, ruled), await createAccount(world.t, ruled)].map((x) => x.keypair);
    const under = await canceledDeal(world.t, ruled, bidders, FREE_LOT);
    expect(codeOf(await offer(world.t, ruled, under.lot.id, { expires_in: 3601 }))).toBe('second_chance_ttl_exceeded');
    const res = await offer(world.t, ruled, under.lot.id);
    expect(res.status).toBe(201);
    expect(Math.abs(Date.parse(res.body.data.attributes.expires_at) - (Date.now() + 3600_000))).toBeLessThan(5000);
    // Accepted, the winner choice records the buyer's fee on the offered price (10 + 10% of 1000.00).
    expect((await answer(world.t, bidders[0], under.lot.id, res.body.data.id, 'accepted')).status).toBe(200);
    expect(await world.t.orm.em.fork().findOneOrFail(WinnerDetails, { lotId: under.lot.id })).toMatchObject({ dealCanceled: null, feeCurrency: 'USD' });
    expect(String((await world.t.orm.em.fork().findOneOrFail(WinnerDetails, { lotId: under.lot.id })).feeAmount)).toBe('110');
  });
});

describe('GET and PATCH /lots/{id}/second_chance_offers/{offer}', () => {
  it('shows a bidder only the offers made to it, and refuses anyone else', async () => {
    const [a, b, c, d] = keys();
    const { lot } = await canceledDeal(world.t, world.platform, [a, b, c]);
    await offered(world.t, world.platform, lot.id);
    expect((await world.t.client.as(a).get(offerPath(lot.id))).body.errors[0]).toMatchObject({ status: '403', code: 'not_allowed' });
    expect((await world.t.client.as(d).get(offerPath(lot.id))).body.errors[0]).toMatchObject({ status: '403', code: 'not_allowed' });
    expect((await world.t.client.get(offerPath(lot.id))).status).toBe(401);
  });

  it('is answered by the bidder offered only, once, with accepted or declined', async () => {
    const [a, b, c] = keys();
    const { lot } = await canceledDeal(world.t, world.platform, [a, b, c]);
    const id = await offered(world.t, world.platform, lot.id);
    expect((await answer(world.t, a, lot.id, id, 'accepted')).body.errors[0]).toMatchObject({ status: '403', code: 'not_allowed' });
    expect((await answer(world.t, world.platform, lot.id, id, 'accepted')).body.errors[0]).toMatchObject({ status: '403', code: 'not_allowed' });
    expect((await answer(world.t, b, lot.id, id, 'maybe')).body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/state' } });
    expect((await answer(world.t, b, lot.id, '999999', 'accepted')).body.errors[0]).toMatchObject({ status: '404', code: 'second_chance_offer_not_found' });
    expect((await answer(world.t, b, lot.id, 'first', 'accepted')).body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', source: { pointer: '/data/id' } });
    expect((await answer(world.t, b, '999999', id, 'accepted')).body.errors[0]).toMatchObject({ status: '404', code: 'lot_not_found' });
    expect((await answer(world.t, b, lot.id, id, 'declined')).status).toBe(200);
    expect((await answer(world.t, b, lot.id, id, 'accepted')).body.errors[0]).toMatchObject({ status: '409', code: 'second_chance_offer_closed' });
    expect((await lotRow(world.t, lot.id)).winnerId).toBe(c.publicKey());
  });

  it('answers 409 second_chance_offer_expired after expires_at, and expires the offer then', async () => {
    const [a, b, c] = keys();
    const { lot } = await canceledDeal(world.t, world.platform, [a, b, c]);
    const id = await offered(world.t, world.platform, lot.id);
    await world.t.orm.em.fork().nativeUpdate(SecondChanceOffer, { id }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await answer(world.t, b, lot.id, id, 'accepted')).body.errors[0]).toMatchObject({ status: '409', code: 'second_chance_offer_expired' });
    expect((await world.t.orm.em.fork().findOneOrFail(SecondChanceOffer, { id })).state).toBe('expired');
    expect((await lotRow(world.t, lot.id)).winnerId).toBe(c.publicKey());
    const told = (await notificationsOf(world.t, [N.SecondChanceAnswered])).filter((n) => n.meta.lot_id === lot.id);
    expect(told).toEqual([{ recipient: world.platform.publicKey(), type: N.SecondChanceAnswered, meta: { lot_id: lot.id, offer_id: id, account_id: b.publicKey(), state: 'expired' } }]);
    expect(codeOf(await answer(world.t, b, lot.id, id, 'accepted'))).toBe('second_chance_offer_closed');
    // The lot may be offered to the next bidder now.
    expect((await offer(world.t, world.platform, lot.id)).body.data.attributes.account_id).toBe(a.publicKey());
  });
});

const OFFER = /* GraphQL */ `mutation ($lotId: ID!, $accountId: String) { offerSecondChance(lotId: $lotId, accountId: $accountId) { id lotId accountId amount currency state expiresAt offeredBy } }`;
const ANSWER = /* GraphQL */ `mutation ($lotId: ID!, $offerId: ID!, $state: String!) { answerSecondChance(lotId: $lotId, offerId: $offerId, state: $state) { id state answeredAt } }`;
const OFFERS = /* GraphQL */ `query ($lotId: ID!) { secondChanceOffers(lotId: $lotId) { id accountId state } }`;

describe('GraphQL: offerSecondChance, answerSecondChance, secondChanceOffers', () => {
  it('offers, lists and accepts as REST does', async () => {
    const [a, b, c] = keys();
    const { lot } = await canceledDeal(world.t, world.platform, [a, b, c]);
    const made = await world.t.client.as(world.platform).graphql(OFFER, { lotId: lot.id });
    expect(made.body.errors).toBeUndefined();
    expect(made.body.data.offerSecondChance).toMatchObject({ lotId: lot.id, accountId: b.publicKey(), amount: '1050.00', currency: 'USD', state: 'open', offeredBy: world.platform.publicKey() });
    const id = made.body.data.offerSecondChance.id;
    expect((await world.t.client.as(b).graphql(OFFERS, { lotId: lot.id })).body.data.secondChanceOffers).toEqual([{ id, accountId: b.publicKey(), state: 'open' }]);
    const accepted = await world.t.client.as(b).graphql(ANSWER, { lotId: lot.id, offerId: id, state: 'accepted' });
    expect(accepted.body.data.answerSecondChance).toMatchObject({ id, state: 'accepted', answeredAt: expect.any(String) });
    expect((await lotRow(world.t, lot.id)).winnerId).toBe(b.publicKey());
  });

  it('answers the same errors in extensions', async () => {
    const [a, b, c] = keys();
    const { lot } = await canceledDeal(world.t, world.platform, [a, b, c]);
    expect((await world.t.client.as(a).graphql(OFFER, { lotId: lot.id })).body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
    const id = (await world.t.client.as(world.platform).graphql(OFFER, { lotId: lot.id })).body.data.offerSecondChance.id;
    expect((await world.t.client.as(world.platform).graphql(OFFER, { lotId: lot.id })).body.errors[0].extensions).toMatchObject({ code: 'second_chance_offer_open', status: 409 });
    expect((await world.t.client.as(a).graphql(ANSWER, { lotId: lot.id, offerId: id, state: 'accepted' })).body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
    expect((await world.t.client.as(b).graphql(ANSWER, { lotId: lot.id, offerId: id, state: 'later' })).body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
    expect((await world.t.client.as(a).graphql(OFFERS, { lotId: lot.id })).body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
    const { lot: won } = await wonLot(world.t, world.platform, [a, b]);
    expect((await world.t.client.as(world.platform).graphql(OFFER, { lotId: won.id })).body.errors[0].extensions).toMatchObject({ code: 'second_chance_not_allowed', status: 400 });
    await world.t.orm.em.fork().nativeUpdate(SecondChanceOffer, { id }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await world.t.client.as(b).graphql(ANSWER, { lotId: lot.id, offerId: id, state: 'accepted' })).body.errors[0].extensions).toMatchObject({ code: 'second_chance_offer_expired', status: 409 });
  });
});
