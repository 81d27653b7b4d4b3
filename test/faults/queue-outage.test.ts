import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { note } from '../helpers/notes';

/**
 * The service as its own process with the job queue on (the default), on a PostgreSQL of this
 * file's own that goes away while a job's handler runs: pg-boss then records the job's outcome
 * on a database out of reach, without waiting for it.
 */
let pg: EmbeddedPostgres;
let dir: string;
let rates: Server;
let service: ServiceProcess | undefined;
/** The rates document's requests that the test holds, answered when it says so. */
const held: ServerResponse[] = [];
let hold = false;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const lines = () => service?.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number; msg: string }) ?? [];

function answer(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ base: 'EUR', rates: { USD: '1.1' } }));
}

async function waitFor(what: string, probe: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the service's output:\n${service?.output().slice(-4000)}`);
    await sleep(100);
  }
}

async function completedRefreshes(): Promise<number> {
  const client = new Client({ connectionString: pg.url });
  await client.connect();
  try {
    return Number((await client.query(`select count(*) as n from pgboss.job where name = 'rates-refresh' and state = 'completed'`)).rows[0].n);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pg-queue-outage-'));
  pg = await startEmbeddedPostgres({ dir });
  rates = createServer((_req, res) => (hold ? held.push(res) : answer(res)));
  await new Promise<void>((resolve) => rates.listen(0, '127.0.0.1', resolve));
  const ratesUrl = `http://127.0.0.1:${(rates.address() as AddressInfo).port}/rates.json`;
  service = await startServiceProcess({ DATABASE_URL: pg.url, JOBS: 'on', JOBS_POLL_SECONDS: '0.5', RATES_URL: ratesUrl, RATES_POLL_SECONDS: '1' });
}, 120_000);

afterAll(async () => {
  held.forEach(answer);
  await service?.kill();
  rates?.close();
  await pg?.stop();
});

describe('the job queue while its database is out of reach', () => {
  it("survives a job's outcome it cannot record, logs the outage once rather than per poll, and works again once the database is back", async () => {
    // A refresh job's handler waits on the rates document while the database goes.
    hold = true;
    await waitFor('a refresh job fetching the rates', () => held.length > 0, 15_000);
    await pg.stop();
    hold = false;
    held.splice(0).forEach(answer);
    // Its handler ends, the outcome cannot be recorded, and every queue polls 0.5 s apart in vain.
    await sleep(4000);
    const alive = await service?.client.get('/readyz').then((r) => r.status, (err: unknown) => String(err));
    if (alive !== 503) console.log(`the service's last output:\n${service?.output().slice(-3000)}`);
    expect(alive).toBe(503);
    const during = lines();
    expect(during.filter((l) => l.msg === 'the database is out of reach')).toHaveLength(1);
    expect(during.filter((l) => l.msg === 'job queue error' || l.level >= 50)).toEqual([]);

    const before = Date.now();
    pg = await startEmbeddedPostgres({ dir, port: pg.port });
    await waitFor('the service ready again', async () => (await service?.client.get('/readyz').then((r) => r.status, () => 0)) === 200, 15_000);
    // The refreshes go on through the queue: one completes after the outage.
    const completed = await completedRefreshes();
    await waitFor('a refresh completed after the outage', async () => (await completedRefreshes()) > completed, 15_000);
    expect(lines().filter((l) => l.msg === 'the database answers again')).toHaveLength(1);
    note(`back ${Date.now() - before} ms after the database's restart; the service's warnings: ${[...new Set(lines().map((l) => l.msg))].join(' | ')}`);
  }, 90_000);
});
