import type { Keypair } from '@stellar/stellar-sdk';
import { bearerFor, blacklist } from '../blacklist/support';
import { appWithPlatform } from '../helpers/world';
import { auction, LOT_UPDATED, NOTIFICATION_ADDED, ready, socketsClosedAfterEach } from './support';

const world = appWithPlatform({ accounts: 2, env: { JWT_TTL: '2s' } });
const sockets = socketsClosedAfterEach();

const open = (as?: string | Keypair) => sockets.open(world.t, as);

describe('closing sockets', () => {
  it('closes a socket with 4401 when its token expires', async () => {
    const token = await bearerFor(world.t, world.accounts[0].id);
    const exp = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).exp as number;
    const socket = await open(token);
    const anonymous = await open();
    const closed = await socket.closed;
    expect(closed).toEqual({ code: 4401, reason: 'token expired' });
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000);
    const lotId = await auction(world.t, world.platform, []);
    const feed = anonymous.subscribe(LOT_UPDATED, { lotId });
    await ready(feed, () => world.t.app.services.live.publishLotChanged(lotId));
  });

  it('closes a socket opened by a signed upgrade with 4401 once a session has lasted JWT_TTL', async () => {
    const opened = Date.now();
    const socket = await open(world.accounts[0].keypair);
    const feed = socket.subscribe(NOTIFICATION_ADDED);
    await ready(feed, () =>
      world.t.app.services.live.publishNotification({ id: '0', recipient: world.accounts[0].id, type: 6, typeStr: 'probe', meta: {}, createdAt: new Date() }),
    );
    expect(feed.errors).toEqual([]);
    expect(await socket.closed).toEqual({ code: 4401, reason: 'session expired' });
    expect(Date.now() - opened).toBeGreaterThanOrEqual(2000);
  });

  it('runs subscriptions only: a query or a mutation over the socket answers subscriptions_only', async () => {
    const socket = await open(await bearerFor(world.t, world.accounts[0].id));
    for (const query of ['{ ping { currentTime } }', 'mutation { placeBid(lotId: "1", amount: "1000") { highestBid } }']) {
      const errors = await new Promise<readonly { extensions?: Record<string, unknown> }[]>((resolve) => {
        socket.client.subscribe({ query }, { next: () => undefined, error: (e) => resolve(e as never), complete: () => resolve([]) });
      });
      expect(errors[0]?.extensions).toMatchObject({ code: 'subscriptions_only', status: 400 });
    }
  });

  it('refuses a socket whose token has already expired, with 4403 and the error code', async () => {
    const token = await bearerFor(world.t, world.accounts[0].id);
    await new Promise((r) => setTimeout(r, 2100));
    const socket = sockets.start(world.t, token);
    expect(await socket.closed).toEqual({ code: 4403, reason: 'jwt_invalid' });
  });

  it("closes a stopped account's sockets with 4403, and only its own", async () => {
    const target = await open(await bearerFor(world.t, world.accounts[0].id));
    const feed = target.subscribe(NOTIFICATION_ADDED);
    await ready(feed, () =>
      world.t.app.services.live.publishNotification({ id: '0', recipient: world.accounts[0].id, type: 6, typeStr: 'probe', meta: {}, createdAt: new Date() }),
    );
    const bystander = await open(await bearerFor(world.t, world.accounts[1].id));
    let bystanderClosed = false;
    void bystander.closed.then(() => (bystanderClosed = true));

    await blacklist(world.t, world.platform, world.accounts[0].id, 'stopped');
    expect(await target.closed).toEqual({ code: 4403, reason: 'account_blocked' });
    await new Promise((r) => setTimeout(r, 200));
    expect(bystanderClosed).toBe(false);
    const again = sockets.start(world.t, await bearerFor(world.t, world.accounts[0].id));
    expect(await again.closed).toEqual({ code: 4403, reason: 'account_blocked' });
  });
});
