import type { Keypair } from '@stellar/stellar-sdk';
import { Bid } from '../../src/modules/bids/bids.entity';
import { Lot } from '../../src/modules/lots/lots.entity';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { appWithPlatform } from '../helpers/world';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';

const world = appWithPlatform({ accounts: 4 });

/** A fresh auction (start 1000, steps 50..500) with the given participants in the given states. */
async function auction(states: ParticipantState[] = [ParticipantState.Pending, ParticipantState.Pending]): Promise<string> {
  const lot = await createLot(world.t, world.platform, ENG_LOT);
  const em = world.t.orm.em.fork();
  states.forEach((state, i) => em.create(Participant, { lotId: lot.id, accountId: world.accounts[i].id, state }));
  await em.flush();
  return lot.id;
}

const bid = (who: Keypair, lotId: string, attributes: Record<string, unknown>) =>
  world.t.client.as(who).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { lot_id: Number(lotId), ...attributes } } });

async function history(lotId: string): Promise<string[]> {
  const rows = await world.t.orm.em.fork().find(Bid, { lotId }, { orderBy: { id: 'asc' } });
  const who = (accountId: string) => `u${world.accounts.findIndex((u) => u.id === accountId)}`;
  return rows.map((b) => `${who(b.accountId)}:${b.amount.toFixed(2)}${b.placedByProxy ? '*' : ''}`);
}

describe('POST /lots/{id}/bid_requests', () => {
  it('takes a first bid from the start price, then steps between min_step and max_step', async () => {
    const lotId = await auction();
    expect((await bid(world.accounts[0].keypair, lotId, { amount: '999.99' })).body.errors[0]).toMatchObject({ code: 'bid_too_low', source: { pointer: '/data/attributes/amount' } });
    expect((await bid(world.accounts[0].keypair, lotId, { amount: '1000' })).status).toBe(204);
    expect((await bid(world.accounts[1].keypair, lotId, { amount: '1049.99' })).body.errors[0].code).toBe('bid_too_low');
    expect((await bid(world.accounts[1].keypair, lotId, { amount: '1500.01' })).body.errors[0].code).toBe('bid_step_invalid');
    expect((await bid(world.accounts[1].keypair, lotId, { amount: '1500' })).status).toBe(204);
    expect(await history(lotId)).toEqual(['u0:1000.00', 'u1:1500.00']);
    const lot = await world.t.client.get(`/lots/${lotId}?include=participants`);
    expect(lot.body.data.attributes.highest_bid).toBe('1500.00');
  });

  it('answers in the documented order: 401, 404, 400 not an auction, 403, 400 not active', async () => {
    const lotId = await auction([ParticipantState.Pending, ParticipantState.DepositPending, ParticipantState.Rejected]);
    expect((await world.t.client.post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount: '1000' } } })).status).toBe(401);
    expect((await bid(world.accounts[0].keypair, '999999', { amount: '1000' })).status).toBe(404);
    const sale = await createLot(world.t, world.platform, DIRECT_SALE);
    expect((await bid(world.accounts[0].keypair, sale.id, { amount: '1000' })).body.errors[0].code).toBe('lot_not_auction');
    expect((await bid(world.accounts[3].keypair, lotId, { amount: '1000' })).body.errors[0]).toMatchObject({ status: '403', code: 'not_participant' });
    expect((await bid(world.accounts[1].keypair, lotId, { amount: '1000' })).body.errors[0]).toMatchObject({ status: '403', code: 'deposit_not_paid' });
    expect((await bid(world.accounts[2].keypair, lotId, { amount: '1000' })).body.errors[0]).toMatchObject({ status: '403', code: 'participant_rejected' });
    await world.t.orm.em.fork().nativeUpdate(Lot, { id: lotId }, { endTime: new Date(Date.now() - 1000) });
    expect((await bid(world.accounts[0].keypair, lotId, { amount: '1000' })).body.errors[0]).toMatchObject({ status: '400', code: 'lot_not_active' });
  });

  it('refuses an attribute a bid request does not have, naming the nearest, and places nothing', async () => {
    const lotId = await auction();
    const misspelt = await bid(world.accounts[0].keypair, lotId, { amount: '1000', max_bid: '12500.00' });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.errors).toEqual([
      expect.objectContaining({
        code: 'invalid_field',
        source: { pointer: '/data/attributes/max_bid' },
        detail: 'max_bid is not an attribute of bid_requests; its attributes: lot_id, amount, max_amount',
      }),
    ]);
    const typo = await bid(world.accounts[0].keypair, lotId, { amout: '1000' });
    expect(typo.body.errors[0]).toMatchObject({ source: { pointer: '/data/attributes/amout' }, detail: expect.stringContaining('amout is not an attribute of bid_requests (did you mean amount?)') });
    expect(await history(lotId)).toEqual([]);
    expect((await bid(world.accounts[0].keypair, lotId, { amount: '1000', max_amount: '12500.00' })).status).toBe(204);
  });

  it('refuses a lot_id that is not the lot of the path, and a missing amount', async () => {
    const lotId = await auction();
    const other = await bid(world.accounts[0].keypair, lotId, { lot_id: 1, amount: '1000' });
    expect(other.body.errors[0].source).toEqual({ pointer: '/data/attributes/lot_id' });
    const missing = await world.t.client.as(world.accounts[0].keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: {} } });
    expect(missing.body.errors[0]).toMatchObject({ code: 'missing_field', source: { pointer: '/data/attributes/amount' } });
  });
});

describe('the lot_id of a bid', () => {
  it('is a positive integer, as every path reads a lot id: negative, zero, fractional and huge ones are refused as such', async () => {
    const lotId = await auction();
    for (const lot_id of [-Number(lotId), 0, '0', 1.5, 1e21, '-1']) {
      const res = await bid(world.accounts[0].keypair, lotId, { lot_id, amount: '1000' });
      expect(res.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', detail: 'lot_id: must be a positive integer', source: { pointer: '/data/attributes/lot_id' } });
    }
    expect(await history(lotId)).toEqual([]);
  });
});

describe('max bids', () => {
  it('bids the least amount that leads and raises it when outbid', async () => {
    const lotId = await auction();
    expect((await bid(world.accounts[0].keypair, lotId, { max_amount: '3000' })).status).toBe(204);
    expect(await history(lotId)).toEqual(['u0:1000.00']);
    expect((await bid(world.accounts[1].keypair, lotId, { amount: '1200' })).status).toBe(204);
    expect(await history(lotId)).toEqual(['u0:1000.00', 'u1:1200.00', 'u0:1250.00*']);
  });

  it('settles a duel of two max bids: the higher leads at the lower max plus the step', async () => {
    const lotId = await auction();
    await bid(world.accounts[0].keypair, lotId, { max_amount: '3000' });
    await bid(world.accounts[1].keypair, lotId, { max_amount: '2000' });
    expect(await history(lotId)).toEqual(['u0:1000.00', 'u1:2000.00', 'u0:2050.00*']);
    const participants = await world.t.orm.em.fork().find(Participant, { lotId }, { orderBy: { id: 'asc' } });
    expect(participants.map((p) => p.currentBid?.toFixed(2))).toEqual(['2050.00', '2000.00']);
    expect((await world.t.client.get(`/lots/${lotId}`)).body.data.attributes.highest_bid).toBe('2050.00');
  });

  it('lets the earlier of two equal max bids lead at its max', async () => {
    const lotId = await auction();
    await bid(world.accounts[0].keypair, lotId, { max_amount: '2000' });
    await bid(world.accounts[1].keypair, lotId, { max_amount: '2000' });
    expect(await history(lotId)).toEqual(['u0:1000.00', 'u0:2000.00*']);
  });

  it('answers 409 to a second max bid while the first is active, and accepts one once it is spent', async () => {
    const lotId = await auction();
    await bid(world.accounts[0].keypair, lotId, { max_amount: '1500' });
    const second = await bid(world.accounts[0].keypair, lotId, { max_amount: '4000' });
    expect(second.status).toBe(409);
    expect(second.body.errors[0].code).toBe('max_bid_exists');
    await bid(world.accounts[1].keypair, lotId, { amount: '1500' });
    expect((await bid(world.accounts[0].keypair, lotId, { max_amount: '4000' })).status).toBe(204);
    expect((await history(lotId)).slice(-1)).toEqual(['u0:1550.00']);
  });
});

describe('status precedence with an active max bid', () => {
  it('answers 400 bid_too_low or bid_step_invalid before 409 max_bid_exists, over REST and GraphQL', async () => {
    const lotId = await auction();
    expect((await bid(world.accounts[0].keypair, lotId, { max_amount: '3000' })).status).toBe(204);
    const rest = async (attributes: Record<string, unknown>) => (await bid(world.accounts[0].keypair, lotId, attributes)).body.errors[0];
    expect(await rest({ amount: '1010', max_amount: '4000' })).toMatchObject({ status: '400', code: 'bid_too_low', source: { pointer: '/data/attributes/amount' } });
    expect(await rest({ amount: '1600', max_amount: '4000' })).toMatchObject({ status: '400', code: 'bid_step_invalid', source: { pointer: '/data/attributes/amount' } });
    expect(await rest({ amount: '1010' })).toMatchObject({ status: '400', code: 'bid_too_low' });
    expect(await rest({ amount: '1050', max_amount: '4000' })).toMatchObject({ status: '409', code: 'max_bid_exists' });
    const gql = async (amount: string) =>
      (await world.t.client.as(world.accounts[0].keypair).graphql('mutation($id: ID!, $amount: String) { placeBid(lotId: $id, amount: $amount, maxAmount: "4000") { highestBid } }', { id: lotId, amount })).body
        .errors[0].extensions;
    expect(await gql('1010')).toMatchObject({ code: 'bid_too_low', status: 400 });
    expect(await gql('1600')).toMatchObject({ code: 'bid_step_invalid', status: 400 });
    expect(await gql('1050')).toMatchObject({ code: 'max_bid_exists', status: 409 });
    expect(await history(lotId)).toHaveLength(1);
  });
});

describe('bid history', () => {
  it('names bidders to the organizer and to each bidder for its own bids only', async () => {
    const lotId = await auction();
    await bid(world.accounts[0].keypair, lotId, { amount: '1000' });
    await bid(world.accounts[1].keypair, lotId, { amount: '1100' });
    const bidders = async (who: Keypair | null) => {
      const client = who ? world.t.client.as(who) : world.t.client;
      const res = await client.get(`/lots/${lotId}?include=bids`);
      return res.body.included.filter((r: any) => r.type === 'bids').map((b: any) => [b.attributes.amount, b.attributes.account_id]);
    };
    expect(await bidders(world.platform)).toEqual([['1000.00', world.accounts[0].id], ['1100.00', world.accounts[1].id]]);
    expect(await bidders(world.accounts[0].keypair)).toEqual([['1000.00', world.accounts[0].id], ['1100.00', null]]);
    expect(await bidders(null)).toEqual([['1000.00', null], ['1100.00', null]]);
    const gql = await world.t.client.as(world.accounts[1].keypair).graphql('query($id: ID!) { lot(id: $id) { highestBid bids { amount bidderId placedByProxy } } }', { id: lotId });
    expect(gql.body.data.lot).toEqual({
      highestBid: '1100.00',
      bids: [
        { amount: '1000.00', bidderId: null, placedByProxy: false },
        { amount: '1100.00', bidderId: world.accounts[1].id, placedByProxy: false },
      ],
    });
  });

  it('marks only the automatic raises of a max bid as placed by proxy, over REST and GraphQL', async () => {
    const lotId = await auction();
    await bid(world.accounts[0].keypair, lotId, { max_amount: '3000' });
    await bid(world.accounts[1].keypair, lotId, { max_amount: '2000' });
    await bid(world.accounts[1].keypair, lotId, { amount: '2100' });
    const expected = [
      ['1000.00', false],
      ['2000.00', false],
      ['2050.00', true],
      ['2100.00', false],
      ['2150.00', true],
    ];
    const rest = await world.t.client.as(world.platform).get(`/lots/${lotId}?include=bids`);
    expect(rest.body.included.filter((r: any) => r.type === 'bids').map((b: any) => [b.attributes.amount, b.attributes.placed_by_proxy])).toEqual(expected);
    const gql = await world.t.client.as(world.platform).graphql('query($id: ID!) { lot(id: $id) { bids { amount placedByProxy } } }', { id: lotId });
    expect(gql.body.data.lot.bids.map((b: any) => [b.amount, b.placedByProxy])).toEqual(expected);
  });

  it('places bids through GraphQL with the same rules', async () => {
    const lotId = await auction();
    const res = await world.t.client.as(world.accounts[0].keypair).graphql('mutation($id: ID!) { placeBid(lotId: $id, maxAmount: "2000") { highestBid bids { amount placedByProxy bidderId } } }', { id: lotId });
    expect(res.body.data.placeBid).toEqual({ highestBid: '1000.00', bids: [{ amount: '1000.00', placedByProxy: false, bidderId: world.accounts[0].id }] });
    const low = await world.t.client.as(world.accounts[1].keypair).graphql('mutation($id: ID!) { placeBid(lotId: $id, amount: "1010") { highestBid } }', { id: lotId });
    expect(low.body.errors[0].extensions).toMatchObject({ code: 'bid_too_low', status: 400 });
  });
});
