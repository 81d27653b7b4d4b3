import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded';
import { migrate, openDatabase } from '../../src/db/orm';
import type { TestResponse } from '../helpers/client';
import { createPlatform } from '../helpers/factories';
import { ENG_LOT } from '../helpers/lots';
import { note } from '../helpers/notes';
import { asTestApp, startServiceProcess, type ServiceProcess } from './service-process';

/**
 * The service as a process on a PostgreSQL of this file's own (the sessions pile up without the
 * bound: never on the machine's server), while a transaction holds `lots` locked for eight answer
 * timeouts and reads of a lot keep coming.
 */
let pg: EmbeddedPostgres;
let service: ServiceProcess;
let platform: Keypair;
let lotId: string;

const POOL_SIZE = 4;
const ANSWER_S = 2;
const LOCK_MS = 16_000;
/** The pool, and the readiness probe's session (JOBS=off: no queue sessions). */
const BOUND = POOL_SIZE + 1;
const READERS = 12;
/** A read waits once for a connection of the pool and once for its statement's answer, each at most DB_ANSWER_TIMEOUT. */
const ANSWER_MS = 2 * ANSWER_S * 1000 + 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function connected(): Promise<Client> {
  const client = new Client({ connectionString: pg.url });
  await client.connect();
  return client;
}

/** The client sessions on the database, but `counter`'s and `others'`. */
async function sessions(counter: Client, others: number[]): Promise<number> {
  const text = "select count(*) as n from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid() and pid <> all($1)";
  return Number((await counter.query<{ n: string }>(text, [others])).rows[0].n);
}

/** Samples `sessions` every 250 ms for `ms`. */
async function sampled(counter: Client, others: number[], ms: number): Promise<number[]> {
  const counts: number[] = [];
  for (const until = Date.now() + ms; Date.now() < until; await sleep(250)) counts.push(await sessions(counter, others));
  return counts;
}

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-locked-'));
  pg = await startEmbeddedPostgres({ dir });
  const orm = await openDatabase(pg.url, 2);
  await migrate(orm);
  await orm.close();
  const master = Keypair.random();
  service = await startServiceProcess({
    DATABASE_URL: pg.url,
    MASTER_SEED: master.secret(),
    JOBS: 'off',
    DB_POOL_SIZE: String(POOL_SIZE),
    DB_ANSWER_TIMEOUT: String(ANSWER_S),
    RATE_LIMIT_WRITES_PER_ADDRESS: '0',
    RATE_LIMIT_WRITES_PER_ACCOUNT: '0',
    RATE_LIMIT_ACCOUNTS_PER_ADDRESS: '0',
  });
  platform = await createPlatform(asTestApp(service, master));
  const created = await service.client.as(platform).post('/lots', { data: { type: 'lots', attributes: ENG_LOT } });
  if (created.status !== 204) throw new Error(`lot creation failed: ${created.status} ${created.text}`);
  const client = await connected();
  try {
    [{ id: lotId }] = (await client.query<{ id: string }>('select id::text from lots where organizer_id = $1', [platform.publicKey()])).rows;
  } finally {
    await client.end();
  }
}, 180_000);

afterAll(async () => {
  await service?.stop();
  await pg?.stop();
});

describe('a table locked for longer than several answer timeouts', () => {
  it(`keeps the service's sessions on the server within DB_POOL_SIZE + 1, answers 503 in time meanwhile, and serves again once the lock is gone`, async () => {
    const counter = await connected();
    const locker = await connected();
    const lockerPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    const answers: { status: number; code: string | null; ms: number }[] = [];
    let locked = true;
    const reader = async () => {
      while (locked) {
        const sentAt = Date.now();
        const res: TestResponse = await service.client.get(`/lots/${lotId}`);
        if (locked) answers.push({ status: res.status, code: res.body?.errors?.[0]?.code ?? null, ms: Date.now() - sentAt });
      }
    };
    try {
      await locker.query('begin');
      await locker.query('lock table lots in access exclusive mode');
      const readers = Promise.all(Array.from({ length: READERS }, reader));
      const counts = await sampled(counter, [lockerPid], LOCK_MS);
      locked = false;
      await locker.query('commit');
      await readers;

      let served = 0;
      const released = Date.now();
      while (Date.now() - released < 10_000 && (await service.client.get(`/lots/${lotId}`)).status !== 200) await sleep(100);
      served = Date.now() - released;
      await sleep(2 * ANSWER_S * 1000);
      const after = await sessions(counter, [lockerPid]);

      note(
        `lots locked ${LOCK_MS} ms (DB_ANSWER_TIMEOUT ${ANSWER_S} s, DB_POOL_SIZE ${POOL_SIZE}, ${READERS} readers, load average ${loadavg()[0].toFixed(2)}): ` +
          `${answers.length} answers while locked, slowest ${Math.max(...answers.map((a) => a.ms))} ms; service sessions on the server at most ${Math.max(...counts)} ` +
          `(samples ${counts.join(' ')}), ${after} after; a lot served ${served} ms after the lock was released`,
      );
      expect(Math.max(...counts)).toBeLessThanOrEqual(BOUND);
      expect(after).toBeLessThanOrEqual(BOUND);
      expect(answers.length).toBeGreaterThan(0);
      for (const a of answers) expect({ status: a.status, code: a.code, inTime: a.ms <= ANSWER_MS }).toEqual({ status: 503, code: 'database_unavailable', inTime: true });
      expect(served).toBeLessThan(5000);
    } finally {
      locked = false;
      await locker.end().catch(() => undefined);
      await counter.end().catch(() => undefined);
    }
  }, 120_000);

  it('keeps them so while commits it gave up on run on, which it does not cancel (as a stuck disk ignores a cancel)', async () => {
    const admin = await connected();
    const answers: string[] = [];
    let running = true;
    try {
      await admin.query(`create function test_slow_commit() returns trigger language plpgsql as $$ begin perform pg_sleep(${3 * ANSWER_S}); return null; end $$`);
      await admin.query('create constraint trigger slow_commit after insert on lots deferrable initially deferred for each row execute function test_slow_commit()');
      const create = async () => {
        while (running) {
          const res = await service.client.as(platform).post('/lots', { data: { type: 'lots', attributes: ENG_LOT } });
          if (running) answers.push(`${res.status} ${res.body?.errors?.[0]?.code ?? ''}`);
        }
      };
      const load = Promise.all(Array.from({ length: READERS }, create));
      const counts = await sampled(admin, [], 5 * 3 * ANSWER_S * 1000);
      running = false;
      await load;
      note(`commits of ${3 * ANSWER_S} s (DB_ANSWER_TIMEOUT ${ANSWER_S} s, DB_POOL_SIZE ${POOL_SIZE}, ${READERS} creators): ${answers.length} answers, ${answers.filter((a) => a === '503 outcome_unknown').length} outcome_unknown; service sessions at most ${Math.max(...counts)} (samples ${counts.join(' ')})`);
      expect(Math.max(...counts)).toBeLessThanOrEqual(BOUND);
      expect(answers).toContain('503 outcome_unknown');
    } finally {
      running = false;
      await admin.query('drop trigger if exists slow_commit on lots').catch(() => undefined);
      await admin.end().catch(() => undefined);
    }
  }, 120_000);
});
