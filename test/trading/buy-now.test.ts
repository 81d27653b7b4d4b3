import type { Keypair } from '@stellar/stellar-sdk';
import { appWithPlatform } from '../helpers/world';
import { createAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { blacklist } from '../blacklist/support';
import { chooseWinner, closeLot, codeOf, endLot, FREE_LOT, join, participantOf, pay } from './trading.helpers';

const world = appWithPlatform({ accounts: 3 });

const buyNow = (who: Keypair, lotId: string, accountId = who.publicKey()) => world.t.client.as(who).patch(`/v2/lots/${lotId}/participants/${accountId}`);

describe('PATCH /v2/lots/{id}/participants/{account}', () => {
  it('records the buy-now request of a pending participant and answers with the participant', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const p = await join(world.t, world.accounts[0].keypair, lot.id);
    await pay(world.t, world.platform, p);
    const res = await buyNow(world.accounts[0].keypair, lot.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'participants',
      id: p.id,
      attributes: { account_id: world.accounts[0].id, lot_id: Number(lot.id), state: 0, state_str: 'pending', requested_buy_now: true },
    });
    expect((await participantOf(world.t, lot.id, world.accounts[0].id)).requestedBuyNow).toBe(true);
  });

  it('answers 409 buy_now_pending to a second participant while one request is pending', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    await join(world.t, world.accounts[0].keypair, lot.id);
    await join(world.t, world.accounts[1].keypair, lot.id);
    expect((await buyNow(world.accounts[0].keypair, lot.id)).status).toBe(200);
    const second = await buyNow(world.accounts[1].keypair, lot.id);
    expect(second.status).toBe(409);
    expect(codeOf(second)).toBe('buy_now_pending');
    expect((await participantOf(world.t, lot.id, world.accounts[1].id)).requestedBuyNow).toBe(false);
  });

  it('lets only one of two simultaneous requests through', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    await join(world.t, world.accounts[0].keypair, lot.id);
    await join(world.t, world.accounts[1].keypair, lot.id);
    const responses = await Promise.all([buyNow(world.accounts[0].keypair, lot.id), buyNow(world.accounts[1].keypair, lot.id)]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('answers 400 participant_not_pending while the deposit is unpaid', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    await join(world.t, world.accounts[0].keypair, lot.id);
    const res = await buyNow(world.accounts[0].keypair, lot.id);
    expect(res.status).toBe(400);
    expect(codeOf(res)).toBe('participant_not_pending');
  });

  it('answers 400 on a lot without buy-now support, an ended lot, a lot with a winner and a closed lot', async () => {
    const noSupport = await createLot(world.t, world.platform, { ...FREE_LOT, buy_now_price: '0' });
    await join(world.t, world.accounts[0].keypair, noSupport.id);
    expect(codeOf(await buyNow(world.accounts[0].keypair, noSupport.id))).toBe('buy_now_not_supported');

    const ended = await createLot(world.t, world.platform, FREE_LOT);
    await join(world.t, world.accounts[0].keypair, ended.id);
    await endLot(world.t, ended.id);
    expect(codeOf(await buyNow(world.accounts[0].keypair, ended.id))).toBe('lot_ended');

    const won = await createLot(world.t, world.platform, FREE_LOT);
    const winner = await join(world.t, world.accounts[0].keypair, won.id);
    await join(world.t, world.accounts[1].keypair, won.id);
    expect((await chooseWinner(world.t, world.platform, won.id, winner)).status).toBe(200);
    expect(codeOf(await buyNow(world.accounts[1].keypair, won.id))).toBe('lot_has_winner');
    expect((await closeLot(world.t, world.platform, won.id, 'sold')).status).toBe(200);
    expect(codeOf(await buyNow(world.accounts[1].keypair, won.id))).toBe('lot_closed');
  });

  it('answers 401, 404 (lot, no participant), 403 (another account, paused) in that order', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    await join(world.t, world.accounts[0].keypair, lot.id);
    expect((await world.t.client.patch(`/v2/lots/${lot.id}/participants/${world.accounts[0].id}`)).status).toBe(401);
    const noLot = await buyNow(world.accounts[0].keypair, '99999999');
    expect([noLot.status, codeOf(noLot)]).toEqual([404, 'lot_not_found']);
    const notJoined = await buyNow(world.accounts[1].keypair, lot.id);
    expect([notJoined.status, codeOf(notJoined)]).toEqual([404, 'participant_not_found']);
    const strangerForOther = await buyNow(world.accounts[1].keypair, lot.id, world.accounts[2].id);
    expect(strangerForOther.status).toBe(404);
    const other = await buyNow(world.accounts[1].keypair, lot.id, world.accounts[0].id);
    expect([other.status, codeOf(other)]).toEqual([403, 'not_allowed']);
    const staff = await buyNow(world.platform, lot.id, world.accounts[0].id);
    expect(staff.status).toBe(403);

    const paused = await createAccount(world.t, world.platform);
    await join(world.t, paused.keypair, lot.id);
    await blacklist(world.t, world.platform, paused.id, 'paused');
    const res = await buyNow(paused.keypair, lot.id);
    expect([res.status, codeOf(res)]).toEqual([403, 'account_paused']);
  });

  it('is the GraphQL mutation requestBuyNow too', async () => {
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    await join(world.t, world.accounts[2].keypair, lot.id);
    const res = await world.t.client.as(world.accounts[2].keypair).graphql('mutation ($lotId: ID!, $a: String!) { requestBuyNow(lotId: $lotId, accountId: $a) { requestedBuyNow stateStr } }', {
      lotId: lot.id,
      a: world.accounts[2].id,
    });
    expect(res.body).toEqual({ data: { requestBuyNow: { requestedBuyNow: true, stateStr: 'pending' } } });
  });
});
