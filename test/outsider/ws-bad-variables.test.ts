import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { closeAll, openRaw, type RawSocket } from '../live/raw-socket';

/**
 * A subscription whose variables do not coerce (one missing, one of the wrong type) was answered
 * over the WebSocket as an unexpected failure (`internal_error`, 500) and logged as one; over HTTP
 * the same variables are 400 `bad_user_input`. The socket answers them as HTTP does, naming the
 * variable, and runs nothing.
 */
const world = appWithPlatform();
const opened: RawSocket[] = [];
afterAll(() => closeAll(opened));

const BIDS = 'subscription ($id: ID!) { bidPlaced(lotId: $id) { amount } }';
const LOT = 'subscription ($id: ID!, $n: Int!) { lotUpdated(lotId: $id) { id bids(last: $n) { id } } }';

describe('a subscription whose variables do not coerce', () => {
  it('is refused bad_user_input naming the variable, as over HTTP, and runs nothing', async () => {
    const lotId = (await createLot(world.t, world.platform)).id;
    const socket = await openRaw(world.t.port);
    opened.push(socket);
    socket.subscribe('missing', BIDS, {});
    socket.subscribe('object', BIDS, { id: { x: 'not an id' } });
    socket.subscribe('type', LOT, { id: lotId, n: 'ten' });
    for (const [id, variable] of [['missing', '$id'], ['object', '$id'], ['type', '$n']]) {
      expect(await socket.outcome(id, 5000)).toBe('bad_user_input');
      const refusal = socket.messages.find((m) => m.id === id && m.type === 'error');
      expect(refusal?.payload[0].message).toContain(`Variable "${variable}"`);
      expect(socket.nexts(id)).toEqual([]);
    }
  });
});
