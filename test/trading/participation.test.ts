import type { Keypair } from '@stellar/stellar-sdk';
import { Participant, ParticipantState, DepositState, Deposit } from '../../src/modules/trading/trading.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import { blacklist } from '../blacklist/support';
import { chooseWinner, closeLot, codeOf, depositOf, endLot, externalLot, FREE_LOT, join, participantOf, participate } from './trading.helpers';

let t: TestApp;
let platform: Keypair;
let user: CreatedAccount;
let broker: CreatedAccount;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  user = await createAccount(t, platform);
  broker = await createAccount(t, platform, { type: 'broker' });
});
afterAll(() => t.close());

describe('POST /lots/{id}/participation_requests', () => {
  it('makes the caller deposit_pending with a pending deposit of the lot amount and currency', async () => {
    const lot = await createLot(t, platform, { ...ENG_LOT, currency: 'EUR', deposit: '250.5' });
    const res = await participate(t, user.keypair, lot.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const participant = await participantOf(t, lot.id, user.id);
    expect(participant).toMatchObject({ state: ParticipantState.DepositPending, requestedBuyNow: false, currentBid: null, maxBid: null });
    const deposit = await depositOf(t, participant);
    expect(deposit).toMatchObject({ lotId: lot.id, accountId: user.id, currency: 'EUR', state: DepositState.Pending });
    expect(deposit.amount.toFixed(2)).toBe('250.50');

    const shown = await t.client.as(user.keypair).get(`/lots/${lot.id}?include=participants,deposits`);
    expect(shown.body.included).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'participants', id: participant.id, attributes: expect.objectContaining({ state: 4, state_str: 'deposit_pending', account_id: user.id }) }),
        expect.objectContaining({ type: 'deposits', attributes: expect.objectContaining({ amount: '250.50', state: 1, state_str: 'pending' }) }),
      ]),
    );
  });

  it('makes the caller pending at once, with no deposit, when the lot asks for none', async () => {
    const lot = await createLot(t, platform, FREE_LOT);
    expect((await participate(t, broker.keypair, lot.id)).status).toBe(204);
    const participant = await participantOf(t, lot.id, broker.id);
    expect(participant.state).toBe(ParticipantState.Pending);
    expect(await t.orm.em.fork().count(Deposit, { participantId: participant.id })).toBe(0);
  });

  it('joins a direct sale with buy_now true and records the buy-now request', async () => {
    const sale = await createLot(t, platform, DIRECT_SALE);
    expect(codeOf(await participate(t, user.keypair, sale.id, { buy_now: false }))).toBe('buy_now_required');
    const res = await participate(t, user.keypair, sale.id, { buy_now: true });
    expect(res.status).toBe(204);
    expect(await participantOf(t, sale.id, user.id)).toMatchObject({ state: ParticipantState.Pending, requestedBuyNow: true });
  });

  it('refuses buy_now true on a lot without buy-now support', async () => {
    const lot = await createLot(t, platform, { ...ENG_LOT, buy_now_price: '0' });
    const res = await participate(t, user.keypair, lot.id, { buy_now: true });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'buy_now_not_supported', source: { pointer: '/data/attributes/buy_now' } });
    expect((await participate(t, user.keypair, lot.id, { buy_now: false })).status).toBe(204);
  });

  it('answers 409 already_participant to a second request, also when requests race', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    await join(t, user.keypair, lot.id);
    const again = await participate(t, user.keypair, lot.id);
    expect(again.status).toBe(409);
    expect(codeOf(again)).toBe('already_participant');

    const racing = await createLot(t, platform, ENG_LOT);
    // Four different bodies, so that no two requests carry the same signature.
    const bodies = [true, false].flatMap((buyNow) => [Number(racing.id), racing.id].map((lotId) => ({ buy_now: buyNow, lot_id: lotId })));
    const responses = await Promise.all(bodies.map((attributes) => participate(t, broker.keypair, racing.id, attributes)));
    expect(responses.map((r) => r.status).sort()).toEqual([204, 409, 409, 409]);
    expect(responses.filter((r) => r.status === 409).every((r) => codeOf(r) === 'already_participant')).toBe(true);
    expect(await t.orm.em.fork().count(Participant, { lotId: racing.id })).toBe(1);
    expect(await t.orm.em.fork().count(Deposit, { lotId: racing.id })).toBe(1);
  });

  it('answers 403 owner_cannot_participate to the organizer and the publisher staff', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    const admin = await createAccount(t, platform, { type: 'admin' });
    for (const who of [platform, admin.keypair]) {
      const res = await participate(t, who, lot.id);
      expect(res.status).toBe(403);
      expect(codeOf(res)).toBe('owner_cannot_participate');
    }
  });

  it('answers 403 not_allowed to staff of another platform', async () => {
    const other = await createPlatform(t);
    const lot = await createLot(t, platform, ENG_LOT);
    const res = await participate(t, other, lot.id);
    expect(res.status).toBe(403);
    expect(codeOf(res)).toBe('not_allowed');
  });

  it('answers 403 account_paused to a paused account', async () => {
    const paused = await createAccount(t, platform);
    await blacklist(t, platform, paused.id, 'paused');
    const lot = await createLot(t, platform, ENG_LOT);
    const res = await participate(t, paused.keypair, lot.id);
    expect(res.status).toBe(403);
    expect(codeOf(res)).toBe('account_paused');
  });

  it('answers 400 lot_read_only on a lot of an external source', async () => {
    const lot = await externalLot(t, platform);
    const res = await participate(t, user.keypair, lot.id);
    expect(res.status).toBe(400);
    expect(codeOf(res)).toBe('lot_read_only');
  });

  it('answers 400 on a lot that ended, has a winner, or is closed', async () => {
    const ended = await createLot(t, platform, ENG_LOT);
    await endLot(t, ended.id);
    expect(codeOf(await participate(t, user.keypair, ended.id))).toBe('lot_ended');

    const won = await createLot(t, platform, FREE_LOT);
    const first = await join(t, broker.keypair, won.id);
    expect((await chooseWinner(t, platform, won.id, first)).status).toBe(200);
    const late = await participate(t, user.keypair, won.id);
    expect(late.status).toBe(400);
    expect(codeOf(late)).toBe('lot_has_winner');

    expect((await closeLot(t, platform, won.id, 'sold')).status).toBe(200);
    const closed = await participate(t, user.keypair, won.id);
    expect(closed.status).toBe(400);
    expect(codeOf(closed)).toBe('lot_closed');

    const finished = await createLot(t, platform, ENG_LOT);
    expect((await closeLot(t, platform, finished.id, 'finished')).status).toBe(200);
    expect(codeOf(await participate(t, user.keypair, finished.id))).toBe('lot_closed');
  });

  it('answers 400 to a malformed document or a lot_id of another lot', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    const wrongType = await t.client.as(user.keypair).post(`/lots/${lot.id}/participation_requests`, { data: { type: 'bids', attributes: {} } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0].source.pointer).toBe('/data/type');
    const wrongLot = await participate(t, user.keypair, lot.id, { lot_id: Number(lot.id) + 1000 });
    expect(wrongLot.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/lot_id' } });
    const notBoolean = await participate(t, user.keypair, lot.id, { buy_now: 'yes' });
    expect(notBoolean.body.errors[0]).toMatchObject({ status: '400', source: { pointer: '/data/attributes/buy_now' } });
    expect(await t.orm.em.fork().count(Participant, { lotId: lot.id })).toBe(0);
  });

  it('answers 400 to a lot_id that is no positive integer, as a bid does', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    for (const lot_id of [-Number(lot.id), 0, 1e21]) {
      const res = await participate(t, user.keypair, lot.id, { lot_id });
      expect(res.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', detail: 'lot_id: must be a positive integer', source: { pointer: '/data/attributes/lot_id' } });
    }
    expect(await t.orm.em.fork().count(Participant, { lotId: lot.id })).toBe(0);
  });

  it('answers 401 without a signature and 404 for an unknown lot', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    const unsigned = await t.client.post(`/lots/${lot.id}/participation_requests`, { data: { type: 'participation_requests', attributes: {} } });
    expect(unsigned.status).toBe(401);
    expect(codeOf(unsigned)).toBe('unauthenticated');
    const missing = await participate(t, user.keypair, '99999999');
    expect(missing.status).toBe(404);
    expect(codeOf(missing)).toBe('lot_not_found');
  });

  it('is the GraphQL mutation requestParticipation too', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    const res = await t.client.as(broker.keypair).graphql(
      'mutation ($lotId: ID!) { requestParticipation(lotId: $lotId, buyNow: true) { id lotId accountId state stateStr requestedBuyNow } }',
      { lotId: lot.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.requestParticipation).toMatchObject({ lotId: lot.id, accountId: broker.id, state: 4, stateStr: 'deposit_pending', requestedBuyNow: true });
    const again = await t.client.as(broker.keypair).graphql('mutation ($lotId: ID!) { requestParticipation(lotId: $lotId) { id } }', { lotId: lot.id });
    expect(again.body.errors[0].extensions).toMatchObject({ code: 'already_participant', status: 409 });
    const anonymous = await t.client.graphql('mutation ($lotId: ID!) { requestParticipation(lotId: $lotId) { id } }', { lotId: lot.id });
    expect(anonymous.body.errors[0].extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
  });
});
