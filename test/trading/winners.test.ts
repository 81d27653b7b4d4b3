import { LotState } from '../../src/modules/lots/lots.entity';
import { DepositState, Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { appWithPlatform } from '../helpers/world';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { chooseWinner, closeLot, codeOf, depositOf, endLot, externalLot, FREE_LOT, join, lotRow, participantOf, pay } from './trading.helpers';

const world = appWithPlatform({ accounts: 4 });

describe('POST /v2/lots/{id}/winners', () => {
  it('makes the participant winner; the other open participants lose and their paid deposits go back', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const [winner, paidLoser, unpaidLoser, rejected] = await Promise.all(world.accounts.map((u) => join(world.t, u.keypair, lot.id)));
    await pay(world.t, world.platform, winner);
    await pay(world.t, world.platform, paidLoser);
    expect((await world.t.client.as(world.platform).delete(`/v2/lots/${lot.id}/participants/${rejected.accountId}`)).status).toBe(204);

    const res = await chooseWinner(world.t, world.platform, lot.id, winner);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'participants',
      id: winner.id,
      attributes: { account_id: winner.accountId, lot_id: Number(lot.id), state: 2, state_str: 'winner', requested_buy_now: false, current_bid: null, max_bid: null },
    });
    expect((await lotRow(world.t, lot.id)).winnerId).toBe(winner.accountId);
    expect((await world.t.client.get(`/lots/${lot.id}`)).body.data.attributes.winner_id).toBe(winner.accountId);

    expect((await participantOf(world.t, lot.id, paidLoser.accountId)).state).toBe(ParticipantState.Lost);
    expect((await participantOf(world.t, lot.id, unpaidLoser.accountId)).state).toBe(ParticipantState.Lost);
    expect((await participantOf(world.t, lot.id, rejected.accountId)).state).toBe(ParticipantState.Rejected);
    expect((await depositOf(world.t, winner)).state).toBe(DepositState.Paid);
    expect((await depositOf(world.t, paidLoser)).state).toBe(DepositState.Returned);
    expect((await depositOf(world.t, unpaidLoser)).state).toBe(DepositState.Pending);
  });

  it('makes a buy_now_winner with buy_now true, also after the end while the lot is pending', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const participant = await join(world.t, world.accounts[0].keypair, lot.id);
    await endLot(world.t, lot.id);
    const admin = await createAccount(world.t, world.platform, { type: 'admin' });
    const res = await chooseWinner(world.t, admin.keypair, lot.id, participant, true);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ state: 3, state_str: 'buy_now_winner' });
  });

  it('answers 400 lot_has_winner to a second choice', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const [a, b] = [await join(world.t, world.accounts[0].keypair, lot.id), await join(world.t, world.accounts[1].keypair, lot.id)];
    expect((await chooseWinner(world.t, world.platform, lot.id, a)).status).toBe(200);
    for (const p of [a, b]) {
      const again = await chooseWinner(world.t, world.platform, lot.id, p);
      expect(again.status).toBe(400);
      expect(codeOf(again)).toBe('lot_has_winner');
    }
  });

  it('gives exactly one winner out of 20 simultaneous choices of different participants', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const racers: CreatedAccount[] = [];
    for (let i = 0; i < 20; i++) racers.push(await createAccount(world.t, world.platform));
    const participants = await Promise.all(racers.map((r) => join(world.t, r.keypair, lot.id)));
    const responses = await Promise.all(participants.map((p) => chooseWinner(world.t, world.platform, lot.id, p)));
    const won = responses.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(responses.filter((r) => r.status === 400 && codeOf(r) === 'lot_has_winner')).toHaveLength(19);
    const rows = await world.t.orm.em.fork().find(Participant, { lotId: lot.id });
    expect(rows.filter((p) => p.state === ParticipantState.Winner).map((p) => p.id)).toEqual([won[0].body.data.id]);
    expect(rows.filter((p) => p.state === ParticipantState.Lost)).toHaveLength(19);
    expect((await lotRow(world.t, lot.id)).winnerId).toBe(won[0].body.data.attributes.account_id);
  });

  it('answers 404 when data.id names no participant', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const res = await world.t.client.as(world.platform).post(`/v2/lots/${lot.id}/winners`, { data: { type: 'participants', id: '99999999', attributes: { buy_now: false } } });
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ code: 'participant_not_found', source: { pointer: '/data/id' } });
    const noLot = await world.t.client.as(world.platform).post('/v2/lots/99999999/winners', { data: { type: 'participants', id: '1', attributes: {} } });
    expect(codeOf(noLot)).toBe('lot_not_found');
  });

  it('answers 400 not_participant for a participant of another lot or another account_id', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const other = await createLot(world.t, world.platform, FREE_LOT);
    const mine = await join(world.t, world.accounts[0].keypair, lot.id);
    const elsewhere = await join(world.t, world.accounts[1].keypair, other.id);
    const foreign = await chooseWinner(world.t, world.platform, lot.id, elsewhere);
    expect(foreign.status).toBe(400);
    expect(codeOf(foreign)).toBe('not_participant');
    const mismatch = await world.t.client.as(world.platform).post(`/v2/lots/${lot.id}/winners`, {
      data: { type: 'participants', id: mine.id, attributes: { buy_now: false, account_id: world.accounts[1].id } },
    });
    expect(mismatch.body.errors[0]).toMatchObject({ status: '400', code: 'not_participant', source: { pointer: '/data/attributes/account_id' } });
    expect((await lotRow(world.t, lot.id)).winnerId).toBeNull();
  });

  it('answers 403 to anyone but the organizer and staff of the publisher, and 401 unsigned', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const participant = await join(world.t, world.accounts[0].keypair, lot.id);
    const stranger = await createPlatform(world.t);
    for (const who of [world.accounts[0].keypair, world.accounts[1].keypair, stranger]) {
      const res = await chooseWinner(world.t, who, lot.id, participant);
      expect(res.status).toBe(403);
      expect(codeOf(res)).toBe('not_allowed');
    }
    const unsigned = await world.t.client.post(`/v2/lots/${lot.id}/winners`, { data: { type: 'participants', id: participant.id, attributes: {} } });
    expect(unsigned.status).toBe(401);
  });

  it('answers 400 on a closed lot, a read-only lot, a rejected participant, and buy now without support', async () => {
    const closed = await createLot(world.t, world.platform, FREE_LOT);
    const late = await join(world.t, world.accounts[0].keypair, closed.id);
    expect((await closeLot(world.t, world.platform, closed.id, 'finished')).status).toBe(200);
    expect(codeOf(await chooseWinner(world.t, world.platform, closed.id, late))).toBe('lot_closed');

    const external = await externalLot(world.t, world.platform);
    const em = world.t.orm.em.fork();
    const imported = em.create(Participant, { lotId: external.id, accountId: world.accounts[0].id, state: ParticipantState.Pending });
    await em.flush();
    expect(codeOf(await chooseWinner(world.t, world.platform, external.id, imported))).toBe('lot_read_only');

    const lot = await createLot(world.t, world.platform, { ...FREE_LOT, buy_now_price: '0' });
    const rejected = await join(world.t, world.accounts[1].keypair, lot.id);
    expect((await world.t.client.as(world.platform).delete(`/v2/lots/${lot.id}/participants/${rejected.accountId}`)).status).toBe(204);
    expect(codeOf(await chooseWinner(world.t, world.platform, lot.id, rejected))).toBe('participant_not_eligible');
    const open = await join(world.t, world.accounts[2].keypair, lot.id);
    const buyNow = await chooseWinner(world.t, world.platform, lot.id, open, true);
    expect(buyNow.body.errors[0]).toMatchObject({ status: '400', code: 'buy_now_not_supported', source: { pointer: '/data/attributes/buy_now' } });
    expect((await chooseWinner(world.t, world.platform, lot.id, open, false)).status).toBe(200);
  });

  it('answers 400 to a malformed document', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const p = await join(world.t, world.accounts[0].keypair, lot.id);
    const noId = await world.t.client.as(world.platform).post(`/v2/lots/${lot.id}/winners`, { data: { type: 'participants', attributes: { buy_now: false } } });
    expect(noId.body.errors[0]).toMatchObject({ status: '400', code: 'missing_field', source: { pointer: '/data/id' } });
    const wrongType = await world.t.client.as(world.platform).post(`/v2/lots/${lot.id}/winners`, { data: { type: 'lots', id: p.id, attributes: {} } });
    expect(wrongType.body.errors[0]).toMatchObject({ status: '400', source: { pointer: '/data/type' } });
    const badFlag = await world.t.client.as(world.platform).post(`/v2/lots/${lot.id}/winners`, { data: { type: 'participants', id: p.id, attributes: { buy_now: 1 } } });
    expect(badFlag.body.errors[0]).toMatchObject({ status: '400', source: { pointer: '/data/attributes/buy_now' } });
    expect((await participantOf(world.t, lot.id, p.accountId)).state).toBe(ParticipantState.Pending);
  });

  it('is the GraphQL mutation chooseWinner too', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const p = await join(world.t, world.accounts[0].keypair, lot.id);
    const query = 'mutation ($lotId: ID!, $id: ID!) { chooseWinner(lotId: $lotId, participantId: $id, buyNow: true) { id state stateStr accountId } }';
    const denied = await world.t.client.as(world.accounts[1].keypair).graphql(query, { lotId: lot.id, id: p.id });
    expect(denied.body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
    const res = await world.t.client.as(world.platform).graphql(query, { lotId: lot.id, id: p.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.chooseWinner).toMatchObject({ id: p.id, state: 3, stateStr: 'buy_now_winner', accountId: p.accountId });
  });
});

describe('DELETE /v2/lots/{id}/participants/{account}', () => {
  it('rejects the participant (state 1) and returns its paid deposit', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const p = await join(world.t, world.accounts[0].keypair, lot.id);
    await pay(world.t, world.platform, p);
    const res = await world.t.client.as(world.platform).delete(`/v2/lots/${lot.id}/participants/${p.accountId}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await participantOf(world.t, lot.id, p.accountId)).state).toBe(ParticipantState.Rejected);
    expect((await depositOf(world.t, p)).state).toBe(DepositState.Returned);
    expect((await world.t.client.as(world.platform).delete(`/v2/lots/${lot.id}/participants/${p.accountId}`)).status).toBe(204);
  });

  it('keeps an unpaid deposit pending, and lets the organizer reject', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const p = await join(world.t, world.accounts[1].keypair, lot.id);
    const admin = await createAccount(world.t, world.platform, { type: 'admin' });
    expect((await world.t.client.as(admin.keypair).delete(`/v2/lots/${lot.id}/participants/${p.accountId}`)).status).toBe(204);
    expect((await depositOf(world.t, p)).state).toBe(DepositState.Pending);
  });

  it('answers 400 participant_not_rejectable for the winner and lot_closed on a closed lot', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const winner = await join(world.t, world.accounts[0].keypair, lot.id);
    expect((await chooseWinner(world.t, world.platform, lot.id, winner)).status).toBe(200);
    const res = await world.t.client.as(world.platform).delete(`/v2/lots/${lot.id}/participants/${winner.accountId}`);
    expect(res.status).toBe(400);
    expect(codeOf(res)).toBe('participant_not_rejectable');
    expect((await closeLot(world.t, world.platform, lot.id, 'sold')).status).toBe(200);
    expect(codeOf(await world.t.client.as(world.platform).delete(`/v2/lots/${lot.id}/participants/${winner.accountId}`))).toBe('lot_closed');
  });

  it('answers 401, 404 and 403 in that order', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const p = await join(world.t, world.accounts[0].keypair, lot.id);
    expect((await world.t.client.delete(`/v2/lots/${lot.id}/participants/${p.accountId}`)).status).toBe(401);
    const noLot = await world.t.client.as(world.accounts[1].keypair).delete(`/v2/lots/99999999/participants/${p.accountId}`);
    expect([noLot.status, codeOf(noLot)]).toEqual([404, 'lot_not_found']);
    const noParticipant = await world.t.client.as(world.accounts[1].keypair).delete(`/v2/lots/${lot.id}/participants/${world.accounts[2].id}`);
    expect([noParticipant.status, codeOf(noParticipant)]).toEqual([404, 'participant_not_found']);
    const denied = await world.t.client.as(world.accounts[1].keypair).delete(`/v2/lots/${lot.id}/participants/${p.accountId}`);
    expect([denied.status, codeOf(denied)]).toEqual([403, 'not_allowed']);
    const self = await world.t.client.as(world.accounts[0].keypair).delete(`/v2/lots/${lot.id}/participants/${p.accountId}`);
    expect(self.status).toBe(403);
    expect((await participantOf(world.t, lot.id, p.accountId)).state).toBe(ParticipantState.Pending);
  });

  it('is the GraphQL mutation rejectParticipant too', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const p = await join(world.t, world.accounts[0].keypair, lot.id);
    const res = await world.t.client.as(world.platform).graphql('mutation ($lotId: ID!, $a: String!) { rejectParticipant(lotId: $lotId, accountId: $a) }', { lotId: lot.id, a: p.accountId });
    expect(res.body).toEqual({ data: { rejectParticipant: true } });
    expect((await participantOf(world.t, lot.id, p.accountId)).state).toBe(ParticipantState.Rejected);
  });
});

describe('POST /lots/closed', () => {
  it('closes a lot with a winner as sold and answers with the lot', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const p = await join(world.t, world.accounts[0].keypair, lot.id);
    const early = await closeLot(world.t, world.platform, lot.id, 'sold');
    expect(early.status).toBe(400);
    expect(early.body.errors[0]).toMatchObject({ code: 'lot_has_no_winner', source: { pointer: '/data/attributes/state' } });
    expect((await chooseWinner(world.t, world.platform, lot.id, p)).status).toBe(200);
    const finished = await closeLot(world.t, world.platform, lot.id, 'finished');
    expect([finished.status, codeOf(finished)]).toEqual([400, 'lot_has_winner']);

    const res = await closeLot(world.t, world.platform, lot.id, 'sold');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'lots', id: lot.id, attributes: { lot_state: 2, lot_state_str: 'lot_state_sold', winner_id: p.accountId } });
    const again = await closeLot(world.t, world.platform, lot.id, 'sold');
    expect([again.status, codeOf(again)]).toEqual([400, 'lot_closed']);
  });

  it('closes a lot without a winner as finished; open participants lose and paid deposits go back', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const paid = await join(world.t, world.accounts[0].keypair, lot.id);
    const unpaid = await join(world.t, world.accounts[1].keypair, lot.id);
    await pay(world.t, world.platform, paid);
    const admin = await createAccount(world.t, world.platform, { type: 'admin' });
    const res = await closeLot(world.t, admin.keypair, lot.id, 'finished');
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ lot_state: 3, lot_state_str: 'lot_state_finished', winner_id: '' });
    expect((await lotRow(world.t, lot.id)).lotState).toBe(LotState.Finished);
    expect((await participantOf(world.t, lot.id, paid.accountId)).state).toBe(ParticipantState.Lost);
    expect((await participantOf(world.t, lot.id, unpaid.accountId)).state).toBe(ParticipantState.Lost);
    expect((await depositOf(world.t, paid)).state).toBe(DepositState.Returned);
    expect((await depositOf(world.t, unpaid)).state).toBe(DepositState.Pending);
    expect(codeOf(await closeLot(world.t, world.platform, lot.id, 'finished'))).toBe('lot_closed');
  });

  it('closes as finished after the winner canceled the deal', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const p = await join(world.t, world.accounts[0].keypair, lot.id);
    expect((await chooseWinner(world.t, world.platform, lot.id, p)).status).toBe(200);
    const cancel = await world.t.client.as(world.platform).put(`/lots/${lot.id}/winner_details`, { data: { type: 'winner_details', id: lot.id, attributes: { deal_canceled: true } } });
    expect(cancel.status).toBe(200);
    expect(codeOf(await closeLot(world.t, world.platform, lot.id, 'sold'))).toBe('lot_has_no_winner');
    expect((await closeLot(world.t, world.platform, lot.id, 'finished')).status).toBe(200);
  });

  it('answers 401, 404, 403 and 400 for malformed documents', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    expect((await world.t.client.post('/lots/closed', { data: { type: 'lots', id: lot.id, attributes: { state: 'finished' } } })).status).toBe(401);
    const missing = await closeLot(world.t, world.platform, '99999999', 'finished');
    expect(missing.body.errors[0]).toMatchObject({ status: '404', code: 'lot_not_found', source: { pointer: '/data/id' } });
    const denied = await closeLot(world.t, world.accounts[0].keypair, lot.id, 'finished');
    expect([denied.status, codeOf(denied)]).toEqual([403, 'not_allowed']);
    const badState = await closeLot(world.t, world.platform, lot.id, 'pending');
    expect(badState.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/state' } });
    const noId = await world.t.client.as(world.platform).post('/lots/closed', { data: { type: 'lots', attributes: { state: 'finished' } } });
    expect(noId.body.errors[0]).toMatchObject({ status: '400', code: 'missing_field', source: { pointer: '/data/id' } });
    const external = await externalLot(world.t, world.platform);
    expect(codeOf(await closeLot(world.t, world.platform, external.id, 'finished'))).toBe('lot_read_only');
    expect((await lotRow(world.t, lot.id)).lotState).toBe(LotState.Pending);
  });

  it('is the GraphQL mutation closeLot too', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    const res = await world.t.client.as(world.platform).graphql('mutation ($id: ID!) { closeLot(lotId: $id, state: "finished") { id lotState lotStateStr winnerId } }', { id: lot.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.closeLot).toEqual({ id: lot.id, lotState: 3, lotStateStr: 'lot_state_finished', winnerId: null });
    const again = await world.t.client.as(world.platform).graphql('mutation ($id: ID!) { closeLot(lotId: $id, state: "finished") { id } }', { id: lot.id });
    expect(again.body.errors[0].extensions).toMatchObject({ code: 'lot_closed', status: 400 });
  });
});
