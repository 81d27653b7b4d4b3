import { Lot } from '../../src/modules/lots/lots.entity';
import { NotificationType } from '../../src/modules/notifications/notifications.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { join as joinLot } from '../trading/trading.helpers';
import { bid as bidOn } from '../rules/rules.helpers';
import { appWithPlatform } from '../helpers/world';
import { ready, socketsClosedAfterEach, type Feed } from '../live/support';

const world = appWithPlatform({ accounts: 3 });
const sockets = socketsClosedAfterEach();
const FREE = { ...ENG_LOT, deposit: '0' };

const ok = async (res: Promise<{ status: number; text: string }>) => {
  const r = await res;
  if (r.status >= 300) throw new Error(`${r.status} ${r.text}`);
};
const join = (who: CreatedAccount, lotId: string) => joinLot(world.t, who.keypair, lotId);
const bid = (who: CreatedAccount, lotId: string, amount: string) => bidOn(world.t, who.keypair, lotId, { amount });
const settle = () => new Promise((r) => setTimeout(r, 300));

const LOTS_UPDATED = 'subscription ($ids: [ID!]!) { lotsUpdated(ids: $ids) { id highestBid endTime } }';
const VIEWER_UPDATED = 'subscription { viewerUpdated { kind lotId lot { id highestBid } participation { accountId isLeading currentBid } } }';

/** A viewerUpdated feed of `who`, live once a probe notice (id 0) came through. */
async function viewerFeed(who: CreatedAccount, lotId: string): Promise<Feed<any>> {
  const feed = (await sockets.open(world.t, who.keypair)).subscribe(VIEWER_UPDATED);
  const probe = { id: '0', recipient: who.id, type: NotificationType.Overbid, typeStr: 'overbid', meta: { lot_id: lotId }, createdAt: new Date() };
  await ready(feed, () => world.t.app.services.live.publishNotification(probe));
  return feed;
}

describe('lotsUpdated', () => {
  it('follows many lots in one operation: an event for each lot that changes', async () => {
    const [bidder] = world.accounts;
    const lots: Lot[] = [];
    for (let i = 0; i < 5; i++) lots.push(await createLot(world.t, world.platform, FREE));
    const ids = lots.map((l) => l.id);
    const feed = (await sockets.open(world.t)).subscribe(LOTS_UPDATED, { ids });
    await ready(feed, () => world.t.app.services.live.publishLotChanged(ids[0]));
    for (const id of ids) {
      await join(bidder, id);
      await ok(bid(bidder, id, '1000'));
    }
    const events = await feed.take(ids.length);
    expect(events.map((e) => e.id).sort()).toEqual([...ids].sort());
    expect(events.every((e) => e.highestBid === '1000.00')).toBe(true);
  });

  it('refuses more lots than its budget: beyond 100 ids, and a selection whose cost times the lots passes the limit', async () => {
    const socket = await sockets.open(world.t);
    const many = Array.from({ length: 101 }, (_, i) => String(i + 1));
    const tooMany = await socket.subscribe(LOTS_UPDATED, { ids: many }).failure();
    expect(tooMany.message).toBe('ids must name 1 to 100 lots');
    const heavy = 'subscription ($ids: [ID!]!) { lotsUpdated(ids: $ids) { id bids { amount bidderId } } }';
    const costly = await socket.subscribe(heavy, { ids: many.slice(0, 100) }).failure();
    expect(costly.message).toMatch(/^the query costs \d+, more than the limit of 20000$/);
    const fine = socket.subscribe(heavy, { ids: many.slice(0, 2) });
    await settle();
    expect(fine.errors).toEqual([]);
  });
});

describe('viewerUpdated', () => {
  it('tells the outbid bidder alone that it was outbid, and each bidder that it leads, with the lot', async () => {
    const [buyer, rival, bystander] = world.accounts;
    const lot = await createLot(world.t, world.platform, FREE);
    await join(buyer, lot.id);
    await join(rival, lot.id);
    await join(bystander, lot.id);
    const buyers = await viewerFeed(buyer, lot.id);
    const rivals = await viewerFeed(rival, lot.id);
    const bystanders = await viewerFeed(bystander, lot.id);

    await ok(bid(buyer, lot.id, '1000'));
    expect(await buyers.take(1)).toEqual([{ kind: 'LEADING', lotId: lot.id, lot: { id: lot.id, highestBid: '1000.00' }, participation: { accountId: buyer.id, isLeading: true, currentBid: '1000.00' } }]);
    await ok(bid(rival, lot.id, '1100'));
    const [outbid] = (await buyers.take(2)).slice(1);
    expect(outbid).toEqual({ kind: 'OUTBID', lotId: lot.id, lot: { id: lot.id, highestBid: '1100.00' }, participation: { accountId: buyer.id, isLeading: false, currentBid: '1000.00' } });
    expect(await rivals.take(1)).toEqual([{ kind: 'LEADING', lotId: lot.id, lot: { id: lot.id, highestBid: '1100.00' }, participation: { accountId: rival.id, isLeading: true, currentBid: '1100.00' } }]);
    await settle();
    expect(rivals.events.map((e) => e.kind)).toEqual(['LEADING']);
    expect(bystanders.events).toEqual([]);
  });

  it('is refused to an anonymous caller', async () => {
    const failure = await (await sockets.open(world.t)).subscribe(VIEWER_UPDATED).failure();
    expect(failure.extensions.code).toBe('unauthenticated');
  });
});

describe('BidEvent.endTime', () => {
  it("carries the lot's end as the bid's request left it", async () => {
    const [bidder] = world.accounts;
    const lot = await createLot(world.t, world.platform, FREE);
    await join(bidder, lot.id);
    const feed = (await sockets.open(world.t)).subscribe('subscription ($lotId: ID!) { bidPlaced(lotId: $lotId) { id amount endTime } }', { lotId: lot.id });
    await ready(feed, () => world.t.app.services.live.publishBid({ id: '0', lotId: lot.id, amount: '0.00', highestBid: '0.00', bidderId: 'probe', placedByProxy: false, createdAt: new Date() }));
    await ok(bid(bidder, lot.id, '1000'));
    const [event] = await feed.take(1);
    const row = await world.t.orm.em.fork().findOneOrFail(Lot, { id: lot.id });
    expect(new Date(event.endTime).getTime()).toBe(row.endTime.getTime());
    const replayed = (await sockets.open(world.t)).subscribe('subscription ($lotId: ID!) { bidPlaced(lotId: $lotId, after: "0") { amount endTime } }', { lotId: lot.id });
    expect(await replayed.take(1)).toEqual([{ amount: '1000.00', endTime: event.endTime }]);
  });
});

describe('platformActivity', () => {
  const ACTIVITY = 'subscription ($platformId: String!) { platformActivity(platformId: $platformId) { id lotId amount bidderId endTime } }';

  it("announces every bid on the platform's lots to its staff, bidders named", async () => {
    const [bidder] = world.accounts;
    const platformId = world.platform.publicKey();
    const lot = await createLot(world.t, world.platform, FREE);
    await join(bidder, lot.id);
    const admin = await createAccount(world.t, world.platform, { type: 'admin' });
    const feeds = [(await sockets.open(world.t, world.platform)).subscribe(ACTIVITY, { platformId }), (await sockets.open(world.t, admin.keypair)).subscribe(ACTIVITY, { platformId })];
    const probe = { id: '0', lotId: lot.id, amount: '0.00', highestBid: '0.00', bidderId: 'probe', placedByProxy: false, createdAt: new Date(), publisherId: platformId };
    for (const feed of feeds) await ready(feed, () => world.t.app.services.live.publishBid(probe));
    await ok(bid(bidder, lot.id, '1000'));
    for (const feed of feeds) expect(await feed.take(1)).toEqual([{ id: expect.any(String), lotId: lot.id, amount: '1000.00', bidderId: bidder.id, endTime: expect.any(String) }]);
  });

  it("refuses another platform's staff, the platform's users and anonymous callers", async () => {
    const platformId = world.platform.publicKey();
    const other = await createPlatform(world.t);
    const otherAdmin = await createAccount(world.t, other, { type: 'admin' });
    for (const who of [other, otherAdmin.keypair, world.accounts[0].keypair]) {
      const failure = await (await sockets.open(world.t, who)).subscribe(ACTIVITY, { platformId }).failure();
      expect(failure.extensions.code).toBe('not_allowed');
    }
    const anonymous = await (await sockets.open(world.t)).subscribe(ACTIVITY, { platformId }).failure();
    expect(anonymous.extensions.code).toBe('unauthenticated');
  });
});
