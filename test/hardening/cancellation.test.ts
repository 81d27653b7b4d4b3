import { request } from 'node:http';
import { Client } from 'pg';
import { createLot } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWithPlatform } from '../helpers/world';

const world = appWithPlatform();

// The bids come with the page's own statement; each of the three other relations is a statement after it.
const QUERY = '{ lots(first: 20) { nodes { id bids { amount } participants { id } stars { createdAt } deposits { id } } } }';

/** Sends the query and drops the connection after `ms`, as a client that gave up would. */
function sendAndHangUp(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ query: QUERY });
    const req = request({ host: '127.0.0.1', port: world.t.port, method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    req.on('error', () => resolve());
    req.end(body);
    setTimeout(() => {
      req.destroy();
      resolve();
    }, ms);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a GraphQL operation whose client went away', () => {
  it('stops resolving: once the page of lots arrives, none of its relations is read', async () => {
    await createLot(world.t, world.platform);
    // The lots stay locked while the client asks and leaves: the operation waits on its first statement.
    const lock = new Client({ connectionString: world.t.config.DATABASE_URL });
    await lock.connect();
    try {
      await lock.query('begin');
      await lock.query('lock table lots in access exclusive mode');
      await sendAndHangUp(500);
      await sleep(200);
      const after = await statementsSent(async () => {
        await lock.query('rollback');
        await sleep(1500);
      });
      // The service sent nothing once its first statement returned; the test's own rollback is all there is.
      expect(after).toEqual(['rollback']);
    } finally {
      await lock.end();
    }
    // The same query from a client that waits reads the page, then its three other relations.
    const answered = await statementsSent(async () => {
      const res = await world.t.client.graphql(QUERY);
      expect(res.body.data.lots.nodes).toHaveLength(1);
    });
    expect(answered.length).toBeGreaterThanOrEqual(4);
  });
});
