import { connect } from 'node:net';
import { Client } from 'pg';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { createAccount } from '../helpers/factories';
import { appWithPlatform } from '../helpers/world';

// A statement may run (or wait for a lock) 1 second; headers must arrive within 1 second (a tenth of REQUEST_TIMEOUT).
const world = appWithPlatform({ env: { DB_STATEMENT_TIMEOUT: '1', REQUEST_TIMEOUT: '10' } });

/** Holds the account's row locked, as a long transaction elsewhere would, while `work` runs. */
async function whileLocked<T>(accountId: string, work: () => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: world.t.config.DATABASE_URL });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('select id from accounts where id = $1 for update', [accountId]);
    return await work();
  } finally {
    await client.query('rollback');
    await client.end();
  }
}

describe('DB_STATEMENT_TIMEOUT', () => {
  const patch = (id: string, city: string) => ({ data: { type: 'accounts', id, attributes: { city } } });

  it('answers a request whose statement outlasts it with 503 database_timeout and the JSON:API body, keeps nothing, and serves again after', async () => {
    const user = await createAccount(world.t, world.platform);
    const started = Date.now();
    const res = await whileLocked(user.id, () => world.t.client.as(user.keypair).patch(`/accounts/${user.id}`, patch(user.id, 'Batumi')));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      errors: [{ status: '503', code: 'database_timeout', title: 'Service Unavailable', detail: expect.stringContaining('took too long and was cancelled'), meta: { request_id: res.headers['x-request-id'] } }],
    });
    const stored = await world.t.orm.em.fork().findOneOrFail(Account, { id: user.id });
    expect(stored.city).not.toBe('Batumi');
    const after = await world.t.client.as(user.keypair).patch(`/accounts/${user.id}`, patch(user.id, 'Kutaisi'));
    expect(after.status).toBe(200);
    expect(after.body.data.attributes.city).toBe('Kutaisi');
  });

  it('answers the GraphQL twin with extensions code database_timeout, status 503', async () => {
    const user = await createAccount(world.t, world.platform);
    const res = await whileLocked(user.id, () =>
      world.t.client.as(user.keypair).graphql('mutation($id: String!) { updateAccount(id: $id, input: { city: "Batumi" }) { city } }', { id: user.id }),
    );
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'database_timeout', status: 503 } });
  });
});

describe('REQUEST_TIMEOUT', () => {
  it('answers 408 and closes a socket whose headers do not arrive in time (a slow sender holds nothing)', async () => {
    const socket = connect(world.t.port, '127.0.0.1');
    const started = Date.now();
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1');
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
