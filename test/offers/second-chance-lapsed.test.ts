import { fetchAndVerifyBidLog } from '../../src/cli/bid-log';
import { LotState } from '../../src/modules/lots/lots.entity';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import { appWithPlatform } from '../helpers/world';
import { bid, setRules } from '../rules/rules.helpers';
import { closeLot, codeOf, lotRow, participantOf } from '../trading/trading.helpers';
import { answer, lapsedLot, offer } from './offers.helpers';

// Issue 16, item 5: a lot whose reserve lapsed is offered to its next bidder, as a canceled deal's lot is.
const world = appWithPlatform({ accounts: 3 });
const keys = () => world.accounts.map((a) => a.keypair);

beforeAll(() => setRules(world.t, world.platform, { reserve_lapse_after: 2 }));

const verify = (lotId: string) => fetchAndVerifyBidLog(world.t.baseUrl, lotId, { signer: world.t.master.publicKey() });
const headOf = async (lotId: string) => (await world.t.client.get(`/lots/${lotId}/bid_log`)).body.data.attributes.head;
const headRows = async (lotId: string) => (await world.t.orm.em.fork().getConnection().execute('select count(*)::int as n from bid_log_heads where lot_id = ?', [lotId]))[0].n;
const statesOf = (lotId: string, accountIds: string[]) => Promise.all(accountIds.map(async (id) => (await participantOf(world.t, lotId, id)).state));

it('offers a lapsed lot to its highest bidder; accepted, the lot is pending with that winner, closes sold, and its bid log verifies', async () => {
  const [a, b, c] = keys();
  const lot = await lapsedLot(world.t, world.platform, [a, b], [c]);
  const lapsed = await lotRow(world.t, lot.id);
  expect(await verify(lot.id)).toMatchObject({ ok: true, signed: true, winnerIsTopBidder: null });

  const made = await offer(world.t, world.platform, lot.id);
  expect(made.status).toBe(201);
  expect(made.body.data.attributes).toMatchObject({ account_id: b.publicKey(), amount: '1050.00', state: 'open' });
  const accepted = await answer(world.t, b, lot.id, made.body.data.id, 'accepted');
  expect(accepted.status).toBe(200);
  expect(accepted.body.data.attributes.state).toBe('accepted');

  const row = await lotRow(world.t, lot.id);
  expect({ state: row.lotState, winner: row.winnerId, lapsedAt: row.lapsedAt }).toEqual({ state: LotState.Pending, winner: b.publicKey(), lapsedAt: lapsed.lapsedAt });
  expect(await statesOf(lot.id, [a.publicKey(), b.publicKey(), c.publicKey()])).toEqual([ParticipantState.Lost, ParticipantState.Winner, ParticipantState.Lost]);
  // Nothing else reopens: the lot has ended and has a winner, so it takes no bid and no other offer.
  expect((await bid(world.t, a, lot.id, { amount: '1500' })).status).toBe(400);
  expect(codeOf(await offer(world.t, world.platform, lot.id))).toBe('second_chance_not_allowed');
  // Until the organizer closes it, the lapse's head stands (docs/bid-log.md).
  expect((await verify(lot.id)).problems).toContain('the lot is lot_state_pending, the head says finished');

  expect((await closeLot(world.t, world.platform, lot.id, 'sold')).status).toBe(200);
  expect((await lotRow(world.t, lot.id)).lotState).toBe(LotState.Sold);
  expect(await verify(lot.id)).toMatchObject({ ok: true, problems: [], entries: 2, signed: true, winnerIsTopBidder: true });
  expect(await headOf(lot.id)).toMatchObject({ lot_state: 'sold', winner_id: b.publicKey(), winner_seq: 2, highest_bid: '1050.00' });
  expect(await headRows(lot.id)).toBe(1);
  expect(codeOf(await offer(world.t, world.platform, lot.id))).toBe('second_chance_not_allowed');
});

const OFFER = /* GraphQL */ `mutation ($lotId: ID!, $accountId: String) { offerSecondChance(lotId: $lotId, accountId: $accountId) { id accountId amount state } }`;
const ANSWER = /* GraphQL */ `mutation ($lotId: ID!, $offerId: ID!, $state: String!) { answerSecondChance(lotId: $lotId, offerId: $offerId, state: $state) { id state } }`;
const CLOSE = /* GraphQL */ `mutation ($lotId: ID!) { closeLot(lotId: $lotId, state: "sold") { lotStateStr winnerId } }`;

it('GraphQL: offerSecondChance to a named bidder of a lapsed lot, answerSecondChance accepted, closeLot sold; the bid log verifies', async () => {
  const [a, b, c] = keys();
  const lot = await lapsedLot(world.t, world.platform, [a, b, c]);
  const made = await world.t.client.as(world.platform).graphql(OFFER, { lotId: lot.id, accountId: a.publicKey() });
  expect(made.body.errors).toBeUndefined();
  expect(made.body.data.offerSecondChance).toMatchObject({ accountId: a.publicKey(), amount: '1000.00', state: 'open' });
  const accepted = await world.t.client.as(a).graphql(ANSWER, { lotId: lot.id, offerId: made.body.data.offerSecondChance.id, state: 'accepted' });
  expect(accepted.body.errors).toBeUndefined();
  expect(accepted.body.data.answerSecondChance.state).toBe('accepted');
  const row = await lotRow(world.t, lot.id);
  expect({ state: row.lotState, winner: row.winnerId, lapsed: row.lapsedAt !== null }).toEqual({ state: LotState.Pending, winner: a.publicKey(), lapsed: true });

  const closed = await world.t.client.as(world.platform).graphql(CLOSE, { lotId: lot.id });
  expect(closed.body.errors).toBeUndefined();
  expect(closed.body.data.closeLot).toEqual({ lotStateStr: 'lot_state_sold', winnerId: a.publicKey() });
  // The winner placed the first bid, not the top one: reported, not failed.
  expect(await verify(lot.id)).toMatchObject({ ok: true, problems: [], entries: 3, signed: true, winnerIsTopBidder: false });
  expect(await headOf(lot.id)).toMatchObject({ lot_state: 'sold', winner_id: a.publicKey(), winner_seq: 1, highest_bid: '1100.00' });
});

it('answers 400 no_second_chance_bidder for a lapsed lot nobody bid on, over REST and GraphQL', async () => {
  const [a, b] = keys();
  const lot = await lapsedLot(world.t, world.platform, [], [a, b]);
  expect((await offer(world.t, world.platform, lot.id)).body.errors[0]).toMatchObject({ status: '400', code: 'no_second_chance_bidder' });
  expect((await world.t.client.as(world.platform).graphql(OFFER, { lotId: lot.id })).body.errors[0].extensions).toMatchObject({ code: 'no_second_chance_bidder', status: 400 });
  expect((await lotRow(world.t, lot.id)).lotState).toBe(LotState.Finished);
});
