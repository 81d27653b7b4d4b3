import { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import type { TestResponse } from '../helpers/client';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { ENG_LOT } from '../helpers/lots';
import { note } from '../helpers/notes';
import { asTestApp, logLinesFrom, startServiceProcess, type ServiceProcess } from './service-process';

/**
 * The service as a process on this file's own test database, which the test makes refuse
 * connections (`allow_connections false`, its sessions ended), then makes vanish (renamed: what a
 * drop says), and whose statements it makes fail as a full disk fails them. Never another database.
 */
let db: TestDatabase;
let name: string;
let service: ServiceProcess;
let master: Keypair;
let bidder: CreatedAccount;
let lotId: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function on<T = Record<string, unknown>>(url: string, text: string, params?: unknown[]): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}
const server = (text: string, params?: unknown[]) => on(process.env.TEST_DATABASE_URL as string, text, params);

const bid = (amount: string) => service.client.as(bidder.keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } });
const graphqlBid = (amount: string) => service.client.as(bidder.keypair).graphql('mutation($lot: ID!, $amount: String!) { placeBid(lotId: $lot, amount: $amount) { highestBid } }', { lot: lotId, amount });
/** GraphQL answers an operation's failure with HTTP 200 and the status in its extensions. */
const answer = (r: TestResponse) => ({ status: r.body?.errors?.[0]?.extensions?.status ?? r.status, code: r.body?.errors?.[0]?.code ?? r.body?.errors?.[0]?.extensions?.code ?? null });

async function untilReady(status: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await service.client.get('/readyz')).status !== status) {
    if (Date.now() > deadline) throw new Error(`/readyz did not answer ${status} within 10 s:\n${service.output().slice(-3000)}`);
    await sleep(100);
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  name = new URL(db.url).pathname.slice(1);
  master = Keypair.random();
  service = await startServiceProcess({ DATABASE_URL: db.url, MASTER_SEED: master.secret(), JOBS: 'off', RATE_LIMIT_WRITES_PER_ADDRESS: '0', RATE_LIMIT_WRITES_PER_ACCOUNT: '0' });
  const app = asTestApp(service, master);
  const platform = await createPlatform(app);
  bidder = await createAccount(app, platform);
  const created = await service.client.as(platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, min_step: '10', max_step: '100000' } } });
  if (created.status !== 204) throw new Error(`lot creation failed: ${created.status} ${created.text}`);
  [{ id: lotId }] = await on<{ id: string }>(db.url, 'select id::text from lots where organizer_id = $1', [platform.publicKey()]);
  await on(db.url, `insert into participants (lot_id, account_id, state) values ($1, $2, ${ParticipantState.Pending})`, [lotId, bidder.id]);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await db?.drop();
});

describe('a database that refuses connections, then is gone', () => {
  it('answers 503 database_unavailable, not 500, logs it once, and serves again once it takes connections', async () => {
    expect((await bid('1000.00')).status).toBe(204);
    const from = service.output().length;
    await server(`alter database "${name}" allow_connections false`);
    await server('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    const refused: TestResponse[] = [];
    try {
      for (let i = 0; i < 20; i++) refused.push(await bid(`${2000 + 10 * i}.00`), await service.client.get(`/lots/${lotId}`), await graphqlBid(`${2005 + 10 * i}.00`));
      expect((await service.client.get('/readyz')).status).toBe(503);
      await server(`alter database "${name}" rename to "${name}_gone"`);
      for (let i = 0; i < 5; i++) refused.push(await bid(`${3000 + 10 * i}.00`), await graphqlBid(`${3005 + 10 * i}.00`));
    } finally {
      await server(`alter database "${name}_gone" rename to "${name}"`).catch(() => undefined);
      await server(`alter database "${name}" allow_connections true`);
    }
    await untilReady(200);
    const after = await bid('5000.00');

    expect(refused.map(answer)).toEqual(refused.map(() => ({ status: 503, code: 'database_unavailable' })));
    expect(refused.filter((r) => String(r.headers['content-type']).startsWith('application/vnd.api+json')).every((r) => r.headers['retry-after'] === '1')).toBe(true);
    expect(after.status).toBe(204);
    // One line when it goes (with the server's reason), one when it is back: no stack, no line per request.
    expect(logLinesFrom(service, from).map((l) => ({ level: l.level, msg: l.msg, code: l.code }))).toEqual([
      { level: 40, msg: 'the database is out of reach', code: '55000' },
      { level: 40, msg: 'the database answers again', code: undefined },
    ]);
    note(`a database refusing connections, then renamed away: ${refused.length} requests, all 503 database_unavailable; the log: 2 lines`);
  }, 60_000);
});

describe('a database whose disk is full', () => {
  it('answers its failed writes 503 database_failing, keeps reading and /readyz 200, and logs it once', async () => {
    // PostgreSQL's own error when it cannot extend a table's file (md.c), raised by the server itself.
    await on(db.url, `create function disk_full() returns trigger language plpgsql as $$ begin
      raise exception using errcode = 'disk_full', message = 'could not extend file "base/1/2": No space left on device', hint = 'Check free disk space.';
    end $$`);
    const from = service.output().length;
    await on(db.url, 'create trigger disk_full before insert on bids for each row execute function disk_full()');
    let writes: TestResponse[];
    let read: TestResponse;
    let ready: TestResponse;
    try {
      writes = [];
      for (let i = 0; i < 10; i++) writes.push(await bid(`${6000 + 20 * i}.00`), await graphqlBid(`${6010 + 20 * i}.00`));
      read = await service.client.get(`/lots/${lotId}`);
      ready = await service.client.get('/readyz');
    } finally {
      await on(db.url, 'drop trigger disk_full on bids');
    }

    expect(writes.map(answer)).toEqual(writes.map(() => ({ status: 503, code: 'database_failing' })));
    expect(writes[0].body.errors[0]).toEqual({
      status: '503',
      code: 'database_failing',
      title: 'Service Unavailable',
      detail: 'the database cannot carry out the request because its disk is full (SQLSTATE 53100); nothing of the request was kept; try again later',
      meta: { request_id: writes[0].headers['x-request-id'] },
    });
    expect({ read: read.status, ready: ready.status }).toEqual({ read: 200, ready: 200 });
    expect((await bid('7000.00')).status).toBe(204);
    const lines = logLinesFrom(service, from);
    expect(lines.map((l) => ({ level: l.level, msg: l.msg, code: l.code }))).toEqual([{ level: 40, msg: 'the database fails statements', code: '53100' }]);
    expect(lines[0]).toMatchObject({ reason: expect.stringContaining('No space left on device') });
  }, 60_000);
});
