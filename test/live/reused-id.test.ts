import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { closeAll, openRaw, type RawSocket } from './raw-socket';
import { probeBid, until } from './support';

const world = appWithPlatform();
const BIDS = 'subscription ($lotId: ID!) { bidPlaced(lotId: $lotId) { id amount } }';

const opened: RawSocket[] = [];
afterEach(() => closeAll(opened));

describe('an id completed while its operation is being set up, and subscribed again at once', () => {
  it('gives the id to the later operation alone: the failure of the earlier one is not reported under it', async () => {
    const lotId = (await createLot(world.t, world.platform)).id;
    const socket = await openRaw(world.t.port, { address: '127.0.0.62' });
    opened.push(socket);
    // The first fails (no such lot) once it has been looked up, after the second took its id.
    socket.subscribe('feed', BIDS, { lotId: '999999999' });
    socket.complete('feed');
    socket.subscribe('feed', BIDS, { lotId });
    await until(
      () => {
        world.t.app.services.live.publishBid(probeBid(lotId));
        return socket.nexts('feed').length > 0;
      },
      5000,
      () => 'the later operation to run',
    );
    expect(socket.messages.filter((m) => m.id === 'feed' && m.type !== 'next')).toEqual([]);
    expect(socket.nexts('feed').filter((payload) => payload.errors)).toEqual([]);
  });
});
