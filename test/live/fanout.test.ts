import WebSocket from 'ws';
import { rfc3339 } from '../../src/core/time';
import { Bid } from '../../src/modules/bids/bids.entity';
import { appWithPlatform } from '../helpers/world';
import { auction, bid, BID_PLACED, probeBid, ready, socketsClosedAfterEach, until, type Feed, type Socket } from './support';

const world = appWithPlatform({ accounts: 2, env: { WS_MAX_BUFFERED: '4096' } });
const sockets = socketsClosedAfterEach();

const open = (accountId?: string) => sockets.openFor(world.t, accountId);

async function live(socket: Socket, query: string, lotId: string, variables: Record<string, unknown> = {}): Promise<Feed<any>> {
  const feed = socket.subscribe(query, { lotId, ...variables });
  await ready(feed, () => world.t.app.services.live.publishBid(probeBid(lotId)));
  return feed;
}

const AMOUNTS = 'subscription ($lotId: ID!) { bidPlaced(lotId: $lotId) { id price: amount bidderId } }';
const IDS = 'subscription Ids($lotId: ID!) { bidPlaced(lotId: $lotId) { id } }';
const MAYBE_AMOUNT = 'subscription ($lotId: ID!, $amount: Boolean!) { bidPlaced(lotId: $lotId) { id amount @include(if: $amount) } }';

/** A bare graphql-transport-ws client, so that the test can stop reading its socket. */
async function rawSubscriber(lotId: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${world.t.port}/graphql`, 'graphql-transport-ws');
  const received: any[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  ws.on('message', (data) => received.push(JSON.parse(String(data))));
  await new Promise((resolve) => ws.once('open', resolve));
  ws.send(JSON.stringify({ type: 'connection_init' }));
  await until(() => received.some((m) => m.type === 'connection_ack'), 5000, () => 'connection_ack');
  ws.send(JSON.stringify({ id: 'slow', type: 'subscribe', payload: { query: AMOUNTS, variables: { lotId } } }));
  const nexts = () => received.filter((m) => m.type === 'next').length;
  await until(
    () => {
      if (nexts() > 0) return true;
      world.t.app.services.live.publishBid(probeBid(lotId));
      return false;
    },
    5000,
    () => 'the raw subscription to become active',
  );
  return { ws, closed, nexts };
}

describe('shared delivery of bidPlaced', () => {
  it('gives subscribers of different operations and visibility each their own result of one bid', async () => {
    const lotId = await auction(world.t, world.platform, [world.accounts[0].id, world.accounts[1].id]);
    const anonymousFull = await live(await open(), BID_PLACED, lotId);
    const anonymousAmounts = await live(await open(), AMOUNTS, lotId);
    const bidderFull = await live(await open(world.accounts[0].id), BID_PLACED, lotId);
    const bidderAmounts = await live(await open(world.accounts[0].id), AMOUNTS, lotId);
    const rivalAmounts = await live(await open(world.accounts[1].id), AMOUNTS, lotId);
    const staffIds = await live(await open(world.platform.publicKey()), IDS, lotId);
    const withAmount = await live(await open(), MAYBE_AMOUNT, lotId, { amount: true });
    const withoutAmount = await live(await open(), MAYBE_AMOUNT, lotId, { amount: false });

    await bid(world.t, world.accounts[0].keypair, lotId, { amount: '1000' });
    const [row] = await world.t.orm.em.fork().find(Bid, { lotId });
    const full = { id: row.id, lotId, amount: '1000.00', highestBid: '1000.00', placedByProxy: false, createdAt: rfc3339(row.createdAt) };
    expect(await anonymousFull.take(1)).toEqual([{ ...full, bidderId: null }]);
    expect(await bidderFull.take(1)).toEqual([{ ...full, bidderId: world.accounts[0].id }]);
    expect(await anonymousAmounts.take(1)).toEqual([{ id: row.id, price: '1000.00', bidderId: null }]);
    expect(await rivalAmounts.take(1)).toEqual([{ id: row.id, price: '1000.00', bidderId: null }]);
    expect(await bidderAmounts.take(1)).toEqual([{ id: row.id, price: '1000.00', bidderId: world.accounts[0].id }]);
    expect(await staffIds.take(1)).toEqual([{ id: row.id }]);
    expect(await withAmount.take(1)).toEqual([{ id: row.id, amount: '1000.00' }]);
    expect(await withoutAmount.take(1)).toEqual([{ id: row.id }]);
  });

  it('closes a socket that reads too slowly with 1013, and keeps delivering to the others', async () => {
    const lotId = await auction(world.t, world.platform, []);
    const healthy = await live(await open(), AMOUNTS, lotId);
    const slow = await rawSubscriber(lotId);
    slow.ws.pause();
    const before = slow.nexts();
    // Large events (amounts of 32 KB of digits) fill the kernel's socket buffers soon; each is
    // published on its own turn of the event loop, so that the healthy subscriber (in this
    // process) reads between them.
    const published = 400;
    for (let i = 1; i <= published; i++) {
      world.t.app.services.live.publishBid({ ...probeBid(lotId), id: String(i), amount: '9'.repeat(32 * 1024) });
      await new Promise((r) => setImmediate(r));
    }
    await healthy.take(published, 10_000);
    slow.ws.resume();
    let closed: unknown = null;
    void slow.closed.then((c) => (closed = c));
    await until(() => closed !== null, 10_000, () => 'the slow socket to close');
    expect(closed).toEqual({ code: 1013, reason: 'slow consumer' });
    expect(slow.nexts() - before).toBeLessThan(published);
    expect(healthy.events.map((e) => e.id)).toEqual(Array.from({ length: published }, (_, i) => String(i + 1)));
  });
});
