import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { QueueDb } from '../../src/jobs/queue-db';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe("the job queue's connections", () => {
  it('answer every query still waiting for a connection when they close, and only then end', async () => {
    const errors: Error[] = [];
    const queue = new QueueDb(db.url, 1, (err) => errors.push(err));
    // One connection: the first query runs and the three others wait for it as close begins.
    const queries = [1, 2, 3, 4].map((n) => queue.executeSql('select $1::int as n, pg_sleep(0.05)', [n]));
    const closed = queue.close(10_000);
    const answers = await Promise.all(queries);
    expect(answers.map((a) => a.rows[0].n)).toEqual([1, 2, 3, 4]);
    await closed;
    await expect(queue.executeSql('select 1', [])).rejects.toThrow(/after calling end/);
    expect(errors).toEqual([]);
  });

  it('stay open for a job handler running as they close, and for the query sent as it ends', async () => {
    const queue = new QueueDb(db.url, 1, () => undefined);
    const handler = queue.holding<unknown>(async () => {
      await sleep(200);
      return 'done';
    });
    // As pg-boss records a job's outcome: in the tick its handler ends, without waiting for it.
    const recorded = handler([]).then((result) => queue.executeSql('select $1::text as result', [result]));
    await queue.close(10_000);
    expect((await recorded).rows[0].result).toBe('done');
  });

  it('end after their time limit even while a handler still runs, which then ends, failed, as does any run after', async () => {
    const queue = new QueueDb(db.url, 1, () => undefined);
    let release!: () => void;
    const hung = queue.holding<unknown>(() => new Promise<void>((resolve) => (release = resolve)))([]);
    const outcome = hung.then(() => 'ended', (err: Error) => err.message);
    const began = Date.now();
    await queue.close(300);
    expect(Date.now() - began).toBeGreaterThanOrEqual(290);
    await expect(queue.executeSql('select 1', [])).rejects.toThrow(/after calling end/);
    expect(await outcome).toBe('the job queue stopped before this job ended');
    release();
    await expect(queue.holding<unknown>(async () => 'ran')([])).rejects.toThrow('the job queue stopped before this job ended');
  });

  it("let go of a handler still running past their time limit: pg-boss's worker ends and no timer of pg-boss's stays", async () => {
    const schema = 'pgboss_abandon';
    // Counted before the queue has a connection: an idle one has a timer of its pool's.
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const queue = new QueueDb(db.url, 2, () => undefined, 0, schema);
    const boss = new PgBoss({ db: queue, schema, schedule: false, supervise: false });
    const errors: unknown[] = [];
    boss.on('error', (err) => errors.push(err));
    await boss.start();
    await boss.createQueue('hung', { name: 'hung', policy: 'standard', retryLimit: 1, expireInSeconds: 900 });
    let began!: () => void;
    const running = new Promise<void>((resolve) => (began = resolve));
    // A handler that never ends, as one waiting on what will not answer.
    const never = () => {
      began();
      return new Promise<void>(() => undefined);
    };
    await boss.work('hung', { pollingIntervalSeconds: 0.5 }, queue.holding(never));
    const id = await boss.send('hung', {});
    await running;
    await boss.stop({ graceful: true, wait: true, timeout: 1000 });
    await queue.close(0);
    // pg-boss looks at its stopping workers once a second until they have ended.
    await sleep(1500);
    expect({ timers: timers(), errors }).toEqual({ timers: before, errors: [] });
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    try {
      const { rows } = await check.query<{ state: string; output: { message?: string } }>(`select state, output from ${schema}.job where id = $1`, [id]);
      // Failed by the stop, then once more as let go of, before the connections ended: the queue runs it again.
      expect(rows).toEqual([{ state: 'retry', output: expect.objectContaining({ message: 'the job queue stopped before this job ended' }) }]);
    } finally {
      await check.end();
    }
  }, 30_000);
});

describe("the job queue's statements", () => {
  it('run named when they carry values, so a connection plans them at its first runs only, and as scripts of several statements without', async () => {
    const queue = new QueueDb(db.url, 1, () => undefined);
    try {
      const listed = 'select count(*)::int as n from pg_prepared_statements where statement like $1';
      // Named, the statement is listed in its connection's pg_prepared_statements as it runs.
      expect((await queue.executeSql(listed, ['%from pg_prepared_statements where statement like%'])).rows).toEqual([{ n: 1 }]);
      await queue.executeSql('create temporary table script_probe (n int); insert into script_probe values (1)', []);
      expect((await queue.executeSql('select count(*)::int as n from script_probe')).rows).toEqual([{ n: 1 }]);
    } finally {
      await queue.close(10_000);
    }
  });
});
