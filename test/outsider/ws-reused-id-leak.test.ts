import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { closeAll, openRaw, type RawSocket } from '../live/raw-socket';
import { probeBid, until } from '../live/support';

/**
 * A client completes a subscription while it is still being set up (its lot being looked up) and
 * at once subscribes again under the same id, as a reconnecting client library may. graphql-ws
 * lets the second in (the id is free again), and when the first's stream arrives it stores it
 * under the id the second now holds, so the later store overwrites the earlier: one of the two
 * streams is referenced by nothing. Neither the client's `complete` nor the socket's close ends
 * it, and its listener on the live bus stays for the life of the process. Any anonymous client
 * makes as many as it likes.
 */
const world = appWithPlatform();
const BIDS = 'subscription ($lotId: ID!) { bidPlaced(lotId: $lotId) { id amount } }';

const opened: RawSocket[] = [];
afterEach(() => closeAll(opened));

async function liveSubscriptions(): Promise<number> {
  const res = await world.t.client.get('/metrics', { headers: { accept: 'text/plain' } });
  const line = res.text.split('\n').find((l: string) => l.startsWith('auction_live_subscriptions '));
  return Number(line?.split(' ')[1]);
}

describe('a subscription id completed while being set up and subscribed again at once', () => {
  it('leaves no listener on the live bus once the socket is closed', async () => {
    const lotId = (await createLot(world.t, world.platform)).id;
    const before = await liveSubscriptions();
    const socket = await openRaw(world.t.port, { address: '127.0.0.61' });
    opened.push(socket);
    for (let i = 0; i < 20; i++) {
      socket.subscribe(`s${i}`, BIDS, { lotId });
      socket.complete(`s${i}`);
      socket.subscribe(`s${i}`, BIDS, { lotId });
    }
    // Each id ends up running once: its bid probe reaches it.
    await until(
      () => {
        world.t.app.services.live.publishBid(probeBid(lotId));
        return Array.from({ length: 20 }, (_, i) => `s${i}`).every((id) => socket.nexts(id).length > 0);
      },
      10_000,
      () => 'every id to run',
    );
    for (let i = 0; i < 20; i++) socket.complete(`s${i}`);
    socket.socket.close();
    await socket.closed;
    // The bus forgets a listener when its stream ends: at once, well within this.
    let after = await liveSubscriptions();
    const poll = Date.now() + 3000;
    while (after !== before && Date.now() < poll) {
      await new Promise((r) => setTimeout(r, 100));
      after = await liveSubscriptions();
    }
    expect(after).toBe(before);
  });
});
