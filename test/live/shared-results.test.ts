import { appWithPlatform } from '../helpers/world';
import { auction, bid, ready, socketsClosedAfterEach, until, type Feed } from './support';

const world = appWithPlatform({ accounts: 2 });
const sockets = socketsClosedAfterEach();

const LOT_WITH_BIDS = 'subscription ($lotId: ID!) { lotUpdated(lotId: $lotId) { id highestBid bids { amount bidderId } participants { accountId } } }';
const LOT_ONLY = 'subscription ($lotId: ID!) { lotUpdated(lotId: $lotId) { id highestBid } }';

/** auction_live_executions_total, as a loopback scraper of GET /metrics reads it. */
async function executions(): Promise<number> {
  const res = await world.t.client.get('/metrics', { headers: { accept: 'text/plain' } });
  const match = /^auction_live_executions_total (\d+)$/m.exec(res.text);
  if (!match) throw new Error(`no auction_live_executions_total in ${res.status} ${res.text.slice(0, 200)}`);
  return Number(match[1]);
}

const subscribed = async (query: string, lotId: string, accountId?: string): Promise<Feed<any>> => (await sockets.openFor(world.t, accountId)).subscribe(query, { lotId });

/** Waits until every feed hears the lot's changes, then forgets the probes. */
async function allLive(feeds: Feed<any>[], lotId: string): Promise<void> {
  await until(
    () => {
      if (feeds.every((f) => f.events.length > 0 || f.errors.length > 0)) return true;
      world.t.app.services.live.publishLotChanged(lotId);
      return false;
    },
    10_000,
    () => 'every subscription to become active',
  );
  expect(feeds.flatMap((f) => f.errors)).toEqual([]);
  await ready(feeds[0], () => world.t.app.services.live.publishLotChanged(lotId));
  for (const f of feeds) f.events = [];
}

describe('lotUpdated results shared by the subscribers who see alike', () => {
  it('executes one change once per selection and visibility, however many subscribe, and redacts per viewer', async () => {
    const [bidder, rival] = world.accounts;
    const lotId = await auction(world.t, world.platform, [bidder.id, rival.id]);
    await bid(world.t, bidder.keypair, lotId, { amount: '1000' });
    const anonymous: Feed<any>[] = [];
    for (let i = 0; i < 20; i++) anonymous.push(await subscribed(LOT_WITH_BIDS, lotId));
    const lean: Feed<any>[] = [];
    for (let i = 0; i < 5; i++) lean.push(await subscribed(LOT_ONLY, lotId));
    const staff = [await subscribed(LOT_WITH_BIDS, lotId, world.platform.publicKey()), await subscribed(LOT_WITH_BIDS, lotId, world.platform.publicKey())];
    const own = await subscribed(LOT_WITH_BIDS, lotId, bidder.id);
    const everyone = [...anonymous, ...lean, ...staff, own];
    await allLive(everyone, lotId);

    const before = await executions();
    world.t.app.services.live.publishLotChanged(lotId);
    await until(() => everyone.every((f) => f.events.length >= 1), 10_000, () => `${everyone.filter((f) => f.events.length).length} of ${everyone.length} subscribers to hear the change`);
    // Nothing more is on its way: each got the one change, once.
    await new Promise((r) => setTimeout(r, 200));
    expect(everyone.map((f) => f.events.length)).toEqual(everyone.map(() => 1));
    // Anonymous with bids, anonymous without, the platform's staff, the bidder: four executions for 28 subscribers.
    expect((await executions()) - before).toBe(4);

    const bids = (f: Feed<any>) => f.events[0].bids;
    for (const f of anonymous) expect(bids(f)).toEqual([{ amount: '1000.00', bidderId: null }]);
    for (const f of staff) expect(bids(f)).toEqual([{ amount: '1000.00', bidderId: bidder.id }]);
    expect(bids(own)).toEqual([{ amount: '1000.00', bidderId: bidder.id }]);
    for (const f of lean) expect(f.events[0]).toEqual({ id: lotId, highestBid: '1000.00' });
    // Participants are shown to staff only: the anonymous share none of the staff's view.
    expect(anonymous[0].events[0].participants).not.toEqual(staff[0].events[0].participants);
  });
});
