import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Keypair } from '@stellar/stellar-sdk';
import { Lot } from '../../src/modules/lots/lots.entity';
import { Participant } from '../../src/modules/trading/trading.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { bid as bidOn } from '../rules/rules.helpers';
import { appWith } from '../helpers/world';
import { chooseWinner, closeLot, join as joinLot } from '../trading/trading.helpers';

/** The documented dashboards: the ```graphql blocks of the "Dashboards" section of docs/graphql.md, by operation name. */
function documentedQueries(): Record<string, string> {
  const doc = readFileSync(path.join(__dirname, '../../docs/graphql.md'), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith('Dashboards\n')) ?? '';
  const blocks = [...section.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]);
  return Object.fromEntries(blocks.map((q) => [/query (\w+)/.exec(q)?.[1], q]));
}
const { BuyerDashboard, SellerDashboard } = documentedQueries();

/** An auction of the platform that needs no deposit, so that a participant may bid at once. */
const FREE = { ...ENG_LOT, deposit: '0' };
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const otherPlatform = await createPlatform(t);
  const buyer = await createAccount(t, platform);
  const rival = await createAccount(t, platform);
  const otherAdmin = await createAccount(t, otherPlatform, { type: 'admin' });
  return { platform, otherPlatform, buyer, rival, otherAdmin };
});

const join = (who: CreatedAccount, lotId: string) => joinLot(world.t, who.keypair, lotId);
const bid = (who: CreatedAccount, lotId: string, amount: string) => bidOn(world.t, who.keypair, lotId, { amount });
const star = (who: CreatedAccount, lotId: string) => world.t.client.as(who.keypair).post(`/accounts/${who.id}/stars`, { data: { type: 'lots', id: lotId } });
const gql = (who: Keypair, query: string, variables?: Record<string, unknown>) => world.t.client.as(who).graphql(query, variables);
const seconds = (time: string) => Math.floor(new Date(time).getTime() / 1000);
const ok = async (res: Promise<{ status: number; text: string }>) => {
  const r = await res;
  if (r.status >= 300) throw new Error(`${r.status} ${r.text}`);
};

/** The REST attributes of each lot a GET /lots answers, by id. */
async function restLots(who: Keypair, query: string): Promise<Map<string, Record<string, any>>> {
  const res = await world.t.client.as(who).get(`/lots?${query}&page[limit]=100`);
  expect(res.status).toBe(200);
  return new Map(res.body.data.map((r: { id: string; attributes: Record<string, unknown> }) => [r.id, r.attributes]));
}

/** The lot's REST participants the caller sees, by id. */
async function restParticipants(who: Keypair, lotId: string): Promise<Map<string, Record<string, any>>> {
  const res = await world.t.client.as(who).get(`/lots/${lotId}?include=participants`);
  return new Map((res.body.included ?? []).filter((r: { type: string }) => r.type === 'participants').map((r: { id: string; attributes: unknown }) => [r.id, r.attributes]));
}

describe('the buyer dashboard of docs/graphql.md', () => {
  let outbidOn: Lot;
  let leadingOn: Lot;
  let starred: Lot;
  let won: Lot;

  beforeAll(async () => {
    const { t, platform, buyer, rival } = world;
    [outbidOn, leadingOn, starred, won] = [await createLot(t, platform, FREE), await createLot(t, platform, FREE), await createLot(t, platform, ENG_LOT), await createLot(t, platform, FREE)];
    for (const lot of [outbidOn, leadingOn, won]) await join(buyer, lot.id);
    await join(rival, outbidOn.id);
    await ok(bid(buyer, outbidOn.id, '1000'));
    await ok(bid(buyer, leadingOn.id, '1000'));
    await ok(bid(buyer, won.id, '1200'));
    await ok(star(buyer, starred.id));
    await ok(star(buyer, leadingOn.id));
    await t.orm.em.fork().nativeUpdate(Lot, { id: won.id }, { endTime: new Date(Date.now() - 1000) });
    const winner = await t.orm.em.fork().findOneOrFail(Participant, { lotId: won.id, accountId: buyer.id });
    await ok(chooseWinner(t, platform, won.id, winner));
    await ok(closeLot(t, platform, won.id, 'sold'));
  });

  it('tells leading from outbid after a rival bids, in one request, as REST shows the same bids', async () => {
    const before = await gql(world.buyer.keypair, BuyerDashboard);
    expect(before.body.errors).toBeUndefined();
    const leadingBefore = Object.fromEntries(before.body.data.viewer.participations.nodes.map((p: any) => [p.lot.id, p.isLeading]));
    expect(leadingBefore).toEqual({ [outbidOn.id]: true, [leadingOn.id]: true, [won.id]: true });

    await ok(bid(world.rival, outbidOn.id, '1100'));
    const res = await gql(world.buyer.keypair, BuyerDashboard);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const { viewer } = res.body.data;
    expect(viewer.id).toBe(world.buyer.id);
    const nodes = viewer.participations.nodes;
    expect(viewer.participations.totalCount).toBe(3);
    // Newest first: the lots in the order the buyer joined them, reversed.
    expect(nodes.map((p: any) => p.lot.id)).toEqual([won.id, leadingOn.id, outbidOn.id]);
    expect(Object.fromEntries(nodes.map((p: any) => [p.lot.id, p.isLeading]))).toEqual({ [outbidOn.id]: false, [leadingOn.id]: true, [won.id]: true });
    expect(Object.fromEntries(nodes.map((p: any) => [p.lot.id, p.lot.viewerCanBid]))).toEqual({ [outbidOn.id]: true, [leadingOn.id]: true, [won.id]: false });
    expect(Object.fromEntries(nodes.map((p: any) => [p.lot.id, p.lot.status]))).toEqual({ [outbidOn.id]: 'LIVE', [leadingOn.id]: 'LIVE', [won.id]: 'SOLD' });

    const rest = await restLots(world.buyer.keypair, `filter[participant]=${world.buyer.id}`);
    for (const p of nodes) {
      const lot = rest.get(p.lot.id) as Record<string, any>;
      expect(p.lot.highestBid).toBe(lot.highest_bid);
      expect(p.lot.currency).toBe(lot.currency);
      expect(seconds(p.lot.endTime)).toBe(seconds(lot.end_time));
      expect(p.lot.reserveMet ?? undefined).toBe(lot.reserve_met);
      const shown = (await restParticipants(world.buyer.keypair, p.lot.id)).get(p.id) as Record<string, any>;
      expect(shown).toBeDefined();
      expect(p.stateStr).toBe(shown.state_str);
      expect(p.currentBid).toBe(shown.current_bid);
      expect(p.maxBid).toBe(shown.max_bid);
      expect(p.isLeading).toBe(shown.current_bid === lot.highest_bid);
    }
    expect(nodes.find((p: any) => p.lot.id === outbidOn.id)).toMatchObject({ currentBid: '1000.00', lot: { highestBid: '1100.00' } });
  });

  it('shows the watchlist with the lots and their prices, and the won lots, as REST does', async () => {
    const { viewer } = (await gql(world.buyer.keypair, BuyerDashboard)).body.data;
    expect(viewer.watchlist.totalCount).toBe(2);
    expect(viewer.watchlist.nodes.map((w: any) => w.lotId)).toEqual([leadingOn.id, starred.id]);
    const stars = await restLots(world.buyer.keypair, `filter[stars_of]=${world.buyer.id}`);
    expect([...stars.keys()].sort()).toEqual([leadingOn.id, starred.id].sort());
    for (const w of viewer.watchlist.nodes) {
      const lot = stars.get(w.lotId) as Record<string, any>;
      expect(w.lot).toEqual({ id: w.lotId, status: 'LIVE', currency: lot.currency, highestBid: lot.highest_bid, buyNowPrice: lot.buy_now_price, endTime: expect.any(String) });
      expect(seconds(w.lot.endTime)).toBe(seconds(lot.end_time));
    }
    const wonRest = await restLots(world.buyer.keypair, 'filter[tab]=won');
    expect(viewer.wonLots.nodes.map((l: any) => l.id)).toEqual([...wonRest.keys()]);
    expect(viewer.wonLots.nodes).toEqual([{ id: won.id, status: 'SOLD', currency: 'USD', highestBid: '1200.00', winnerId: world.buyer.id }]);
    expect((wonRest.get(won.id) as Record<string, any>).highest_bid).toBe('1200.00');
  });
});

describe('the seller dashboard of docs/graphql.md', () => {
  let seller: Keypair;
  const lots: Record<string, Lot> = {};

  beforeAll(async () => {
    const { t } = world;
    seller = await createPlatform(t);
    const bidder = await createAccount(t, seller);
    lots.scheduled = await createLot(t, seller, { ...FREE, start_time: inAnHour() });
    lots.live = await createLot(t, seller, { ...FREE, reserve_price: '3000' });
    lots.ended = await createLot(t, seller, FREE);
    lots.sold = await createLot(t, seller, FREE);
    for (const lot of [lots.live, lots.ended, lots.sold]) {
      await join(bidder, lot.id);
      await ok(bid(bidder, lot.id, '1000'));
    }
    await t.orm.em.fork().nativeUpdate(Lot, { id: { $in: [lots.ended.id, lots.sold.id] } }, { endTime: new Date(Date.now() - 1000) });
    const winner = await t.orm.em.fork().findOneOrFail(Participant, { lotId: lots.sold.id, accountId: bidder.id });
    await ok(chooseWinner(t, seller, lots.sold.id, winner));
    await ok(closeLot(t, seller, lots.sold.id, 'sold'));
  });

  it('tells scheduled, live, ended and sold lots apart in one request, as REST shows them to the seller', async () => {
    const res = await gql(seller, SellerDashboard);
    expect(res.body.errors).toBeUndefined();
    const { organizedLots, notifications } = res.body.data.viewer;
    const status = Object.fromEntries(organizedLots.nodes.map((l: any) => [l.id, l.status]));
    expect(status).toEqual({ [lots.scheduled.id]: 'SCHEDULED', [lots.live.id]: 'LIVE', [lots.ended.id]: 'ENDED', [lots.sold.id]: 'SOLD' });
    const rest = await restLots(seller, `filter[organizer]=${seller.publicKey()}`);
    expect(organizedLots.nodes.map((l: any) => l.id).sort()).toEqual([...rest.keys()].sort());
    for (const l of organizedLots.nodes) {
      const lot = rest.get(l.id) as Record<string, any>;
      expect(l.highestBid).toBe(lot.highest_bid);
      expect(l.currency).toBe(lot.currency);
      expect(l.reservePrice ?? undefined).toBe(lot.reserve_price);
      expect(l.reserveMet ?? undefined).toBe(lot.reserve_met);
      expect(seconds(l.startTime)).toBe(seconds(lot.start_time));
      const participants = await restParticipants(seller, l.id);
      expect(l.participants.map((p: any) => p.id).sort()).toEqual([...participants.keys()].sort());
      for (const p of l.participants) expect([p.accountId, p.stateStr, p.currentBid]).toEqual([participants.get(p.id)?.account_id, participants.get(p.id)?.state_str, participants.get(p.id)?.current_bid]);
    }
    expect(organizedLots.nodes.find((l: any) => l.id === lots.live.id).reservePrice).toBe('3000.00');
    expect(organizedLots.pageInfo.hasNextPage).toBe(false);
    const restNotes = await world.t.client.as(seller).get('/notifications?page[size]=100');
    expect(notifications.totalCount).toBe(restNotes.body.data.length);
    for (const n of notifications.nodes) if (n.lot) expect(Object.values(lots).map((l) => l.id)).toContain(n.lot.id);
  });
});

describe('the viewer runs a constant number of statements', () => {
  it('answers one participation and twenty with the same statements', async () => {
    const { t, platform } = world;
    const statementsFor = async (n: number) => {
      const who = await createAccount(t, platform);
      for (let i = 0; i < n; i++) {
        const lot = await createLot(t, platform, FREE);
        await join(who, lot.id);
        await ok(bid(who, lot.id, '1000'));
        await ok(star(who, lot.id));
      }
      await gql(who.keypair, BuyerDashboard);
      let answer: any;
      const sent = await statementsSent(async () => {
        answer = await gql(who.keypair, BuyerDashboard);
      });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.viewer.participations.nodes).toHaveLength(n);
      expect(answer.body.data.viewer.watchlist.nodes).toHaveLength(n);
      return sent.length;
    };
    const one = await statementsFor(1);
    const twenty = await statementsFor(20);
    expect(one).toBeLessThan(15);
    expect(twenty).toBe(one);
  });
});
