import { Bid } from '../../src/modules/bids/bids.entity';
import { appWithPlatform } from '../helpers/world';
import { auction, bid, BID_PLACED, socketsClosedAfterEach, until, type Feed } from './support';

const LIMIT = 10;
const world = appWithPlatform({ accounts: 2, env: { REPLAY_MAX_BIDS: String(LIMIT) } });
const sockets = socketsClosedAfterEach();

const idsOf = async (lotId: string) => (await world.t.orm.em.fork().find(Bid, { lotId }, { orderBy: { id: 'asc' } })).map((b) => b.id);

/** Alternating bids of the two users, each one step of 50 above the last. */
async function bids(lotId: string, from: number, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await bid(world.t, world.accounts[(from + i) % 2].keypair, lotId, { amount: String(1000 + 50 * (from + i)) });
}

/** Series of GET /metrics, as a loopback scraper reads them. */
async function metrics(...names: string[]): Promise<number[]> {
  const res = await world.t.client.get('/metrics', { headers: { accept: 'text/plain' } });
  return names.map((name) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(res.text)?.[1] ?? NaN));
}

describe('bidPlaced(after) replays at most REPLAY_MAX_BIDS bids', () => {
  it('yields exactly the limit then replay_truncated; a later after yields the rest, then the live bids, with no gap and no duplicate', async () => {
    const lotId = await auction(world.t, world.platform, [world.accounts[0].id, world.accounts[1].id]);
    await bids(lotId, 0, LIMIT + 4);
    const ids = await idsOf(lotId);

    const first = (await sockets.open(world.t)).subscribe(BID_PLACED, { lotId, after: '0' });
    await until(() => first.errors.length > 0, 5000, () => 'the replay to end');
    expect(first.events.map((e) => e.id)).toEqual(ids.slice(0, LIMIT));
    expect(first.errors).toHaveLength(1);
    expect(first.errors[0]).toMatchObject({ extensions: { code: 'replay_truncated', status: 400 } });
    expect(first.errors[0].message).toMatch(`more than ${LIMIT} bids were placed after 0`);
    // The replay ended: a live bid reaches it no more.
    expect(first.completed).toBe(false);

    const resumed = (await sockets.open(world.t)).subscribe(BID_PLACED, { lotId, after: first.events[LIMIT - 1].id });
    await resumed.take(4);
    await bids(lotId, LIMIT + 4, 2);
    await resumed.take(6);
    await new Promise((r) => setTimeout(r, 200));
    expect(resumed.errors).toEqual([]);
    expect(resumed.events.map((e) => e.id)).toEqual((await idsOf(lotId)).slice(LIMIT));
    expect(resumed.events.map((e) => e.amount)).toEqual(Array.from({ length: 6 }, (_, i) => `${1000 + 50 * (LIMIT + i)}.00`));
    expect(first.events).toHaveLength(LIMIT);
  });

  it('yields exactly the limit without error when exactly that many were placed, then live bids', async () => {
    const lotId = await auction(world.t, world.platform, [world.accounts[0].id, world.accounts[1].id]);
    await bids(lotId, 0, LIMIT);
    const feed = (await sockets.open(world.t)).subscribe(BID_PLACED, { lotId, after: '0' });
    await feed.take(LIMIT);
    await bids(lotId, LIMIT, 1);
    await feed.take(LIMIT + 1);
    expect(feed.events.map((e) => e.id)).toEqual(await idsOf(lotId));
  });

  it('reads the database once for replays asked together, executes each bid once per visibility, and redacts per subscriber', async () => {
    const [bidder, rival] = world.accounts;
    const lotId = await auction(world.t, world.platform, [bidder.id, rival.id]);
    await bids(lotId, 0, 8);
    const ids = await idsOf(lotId);
    const anonymous = await Promise.all(Array.from({ length: 30 }, () => sockets.open(world.t)));
    const staff = await sockets.openFor(world.t, world.platform.publicKey());
    const [readsBefore, executionsBefore] = await metrics('auction_live_replay_reads_total', 'auction_live_executions_total');

    const feeds: Feed<any>[] = anonymous.map((s) => s.subscribe(BID_PLACED, { lotId, after: '0' }));
    const staffFeed = staff.subscribe(BID_PLACED, { lotId, after: '0' });
    for (const feed of [...feeds, staffFeed]) await feed.take(8);
    const [readsAfter, executionsAfter] = await metrics('auction_live_replay_reads_total', 'auction_live_executions_total');

    for (const feed of feeds) expect(feed.events.map((e) => [e.id, e.bidderId])).toEqual(ids.map((id) => [id, null]));
    expect(staffFeed.events.map((e) => e.bidderId)).toEqual(ids.map((_, i) => world.accounts[i % 2].id));
    // The subscriptions arrive while the first read runs: they wait for one more read, not one each.
    expect(readsAfter - readsBefore).toBeLessThanOrEqual(3);
    // Per read, each bid once for the anonymous and once for the staff: 31 subscribers once would be 248.
    expect(executionsAfter - executionsBefore).toBeLessThanOrEqual(3 * 8 * 2);
  });
});
