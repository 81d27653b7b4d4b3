import { createLot, ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { socketsClosedAfterEach } from '../live/support';

/**
 * `lotsUpdated(ids:)` follows up to 100 lots; one id that names no lot refuses the whole
 * subscription. It was refused with "no lot with this id", which left a dashboard to find the one
 * id among 100 by itself; the error names the entry.
 */
const world = appWithPlatform();
const sockets = socketsClosedAfterEach();
const LOTS_UPDATED = 'subscription ($ids: [ID!]!) { lotsUpdated(ids: $ids) { id } }';

describe('lotsUpdated with an id that names no lot', () => {
  it('names the entry of ids at fault', async () => {
    const lot = await createLot(world.t, world.platform, ENG_LOT);
    const socket = await sockets.open(world.t);
    const failure = await socket.subscribe(LOTS_UPDATED, { ids: [lot.id, lot.id, '999999999'] }).failure();
    expect(failure.message).toBe('ids.2 names no lot');
    expect(failure.extensions).toMatchObject({ code: 'lot_not_found', status: 404, errors: [expect.objectContaining({ field: 'ids.2' })] });
  });
});
