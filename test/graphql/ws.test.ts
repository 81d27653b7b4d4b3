import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { claimsOf } from '../../src/modules/credentials/credentials.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { AccountType, insertAccount } from '../helpers/factories';
import { connect, NOTIFICATION_ADDED, ready } from '../live/support';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function wsClient(connectionParams?: Record<string, unknown>): Client {
  return createClient({ url: `ws://127.0.0.1:${t.port}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
}

function run<T>(client: Client, query: string): Promise<{ data?: T; errors?: unknown[] }> {
  return new Promise((resolve, reject) => {
    let result: { data?: T; errors?: unknown[] } = {};
    client.subscribe<T>({ query }, { next: (r) => (result = r as typeof result), error: reject, complete: () => resolve(result) });
  });
}

describe('GraphQL over WebSocket', () => {
  it('runs subscriptions only: a query answers subscriptions_only, anonymously too', async () => {
    const client = wsClient();
    try {
      await expect(run(client, '{ ping { masterAccountId } }')).rejects.toEqual([expect.objectContaining({ extensions: { code: 'subscriptions_only', status: 400 } })]);
    } finally {
      await client.dispose();
    }
  });

  it('authenticates the socket with a bearer token in connectionParams', async () => {
    const user = await insertAccount(t.orm, AccountType.User);
    const account = await t.orm.em.fork().findOneOrFail(Account, { id: user.publicKey() });
    const socket = connect(t, await t.app.jwt.issue(claimsOf(account)));
    try {
      const feed = socket.subscribe(NOTIFICATION_ADDED);
      // An anonymous socket would get `unauthenticated` here instead of the caller's notification.
      await ready(feed, () =>
        t.app.services.live.publishNotification({ id: '0', recipient: user.publicKey(), type: 6, typeStr: 'probe', meta: {}, createdAt: new Date() }),
      );
      expect(feed.errors).toEqual([]);
    } finally {
      await socket.dispose();
    }
  });

  it('refuses a socket with an invalid token', async () => {
    const client = wsClient({ authorization: 'Bearer nope' });
    try {
      await expect(run(client, NOTIFICATION_ADDED)).rejects.toMatchObject({ code: 4403 });
    } finally {
      await client.dispose();
    }
  });
});
