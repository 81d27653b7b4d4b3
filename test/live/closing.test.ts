import type { Keypair } from '@stellar/stellar-sdk';
import { bearerFor, blacklist } from '../blacklist/support';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { auction, connect, LOT_UPDATED, NOTIFICATION_ADDED, ready, type Socket } from './support';

let t: TestApp;
let platform: Keypair;
let users: CreatedAccount[];
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestApp({ JWT_TTL: '2s' });
  platform = await createPlatform(t);
  users = [await createAccount(t, platform), await createAccount(t, platform)];
});
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.dispose()));
});
afterAll(() => t.close());

async function open(as?: string | Keypair): Promise<Socket> {
  const socket = connect(t, as);
  sockets.push(socket);
  await socket.connected;
  return socket;
}

describe('closing sockets', () => {
  it('closes a socket with 4401 when its token expires', async () => {
    const token = await bearerFor(t, users[0].id);
    const exp = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).exp as number;
    const socket = await open(token);
    const anonymous = await open();
    const closed = await socket.closed;
    expect(closed).toEqual({ code: 4401, reason: 'token expired' });
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000);
    const lotId = await auction(t, platform, []);
    const feed = anonymous.subscribe(LOT_UPDATED, { lotId });
    await ready(feed, () => t.app.services.live.publishLotChanged(lotId));
  });

  it('closes a socket opened by a signed upgrade with 4401 once a session has lasted JWT_TTL', async () => {
    const opened = Date.now();
    const socket = await open(users[0].keypair);
    const feed = socket.subscribe(NOTIFICATION_ADDED);
    await ready(feed, () =>
      t.app.services.live.publishNotification({ id: '0', recipient: users[0].id, type: 6, typeStr: 'probe', meta: {}, createdAt: new Date() }),
    );
    expect(feed.errors).toEqual([]);
    expect(await socket.closed).toEqual({ code: 4401, reason: 'session expired' });
    expect(Date.now() - opened).toBeGreaterThanOrEqual(2000);
  });

  it('runs subscriptions only: a query or a mutation over the socket answers subscriptions_only', async () => {
    const socket = await open(await bearerFor(t, users[0].id));
    for (const query of ['{ ping { currentTime } }', 'mutation { placeBid(lotId: "1", amount: "1000") { highestBid } }']) {
      const errors = await new Promise<readonly { extensions?: Record<string, unknown> }[]>((resolve) => {
        socket.client.subscribe({ query }, { next: () => undefined, error: (e) => resolve(e as never), complete: () => resolve([]) });
      });
      expect(errors[0]?.extensions).toMatchObject({ code: 'subscriptions_only', status: 400 });
    }
  });

  it('refuses a socket whose token has already expired, with 4403 and the error code', async () => {
    const token = await bearerFor(t, users[0].id);
    await new Promise((r) => setTimeout(r, 2100));
    const socket = connect(t, token);
    sockets.push(socket);
    expect(await socket.closed).toEqual({ code: 4403, reason: 'jwt_invalid' });
  });

  it("closes a stopped account's sockets with 4403, and only its own", async () => {
    const target = await open(await bearerFor(t, users[0].id));
    const feed = target.subscribe(NOTIFICATION_ADDED);
    await ready(feed, () =>
      t.app.services.live.publishNotification({ id: '0', recipient: users[0].id, type: 6, typeStr: 'probe', meta: {}, createdAt: new Date() }),
    );
    const bystander = await open(await bearerFor(t, users[1].id));
    let bystanderClosed = false;
    void bystander.closed.then(() => (bystanderClosed = true));

    await blacklist(t, platform, users[0].id, 'stopped');
    expect(await target.closed).toEqual({ code: 4403, reason: 'account_blocked' });
    await new Promise((r) => setTimeout(r, 200));
    expect(bystanderClosed).toBe(false);
    const again = connect(t, await bearerFor(t, users[0].id));
    sockets.push(again);
    expect(await again.closed).toEqual({ code: 4403, reason: 'account_blocked' });
  });
});
