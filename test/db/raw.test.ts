import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Socket } from 'node:net';
import { Client } from 'pg';
import { rawQuery, rawTransaction } from '../../src/db/raw';
import { openDatabase } from '../../src/db/orm';
import { preparedRowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

let db: TestDatabase;
let orm: MikroORM;
let admin: Client;

beforeAll(async () => {
  db = await createTestDatabase();
  // One connection: the caller waiting for it gets whatever the failed transaction gives back.
  orm = await openDatabase(db.url, 1);
  admin = new Client({ connectionString: db.url });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await orm.close();
  await db.drop();
});

describe('rawTransaction', () => {
  it('never gives the pool back a connection whose rollback failed', async () => {
    const em = orm.em.fork() as EntityManager;
    for (let round = 0; round < 5; round++) {
      let waiting: Promise<unknown> = Promise.resolve();
      const failed = rawTransaction(em, [{ text: 'select pg_backend_pid() as pid' }], async (_tx, [[opened]]) => {
        // The server ends the session while its transaction is open, so the rollback fails.
        await admin.query('select pg_terminate_backend($1)', [opened.pid]);
        waiting = rawQuery(em, { text: 'select 1 as one' });
        throw new Error('the work failed');
      });
      await expect(failed).rejects.toThrow('the work failed');
      await expect(waiting).resolves.toEqual([expect.objectContaining({ rows: [{ one: 1 }] })]);
    }
  });

  it('answers outcome_unknown, not database_unavailable, when the connection dies inside the commit', async () => {
    const em = orm.em.fork() as EntityManager;
    await admin.query('create table if not exists raw_doubt (n int)');
    const inDoubt = rawTransaction(em, [{ text: 'select pg_backend_pid() as pid' }], async (tx, [[opened]]) => {
      const kill = (async () => {
        // The session is inside the commit's pipeline, asleep, when the server ends it.
        while ((await admin.query(`select 1 from pg_stat_activity where pid = $1 and query like '%pg_sleep%'`, [opened.pid])).rowCount === 0) await new Promise((r) => setTimeout(r, 10));
        await admin.query('select pg_terminate_backend($1)', [opened.pid]);
      })();
      try {
        return await tx.commitWith([{ text: 'insert into raw_doubt select 1 from pg_sleep(5)' }]);
      } finally {
        await kill;
      }
    });
    await expect(inDoubt).rejects.toMatchObject({ code: 'outcome_unknown', status: 503, retryAfter: 1 });
    // The session was ended before its commit: here the answer's doubt resolved to "not kept".
    expect((await admin.query('select count(*)::int as n from raw_doubt')).rows).toEqual([{ n: 0 }]);
    await expect(rawQuery(em, { text: 'select 1 as one' })).resolves.toEqual([expect.objectContaining({ rows: [{ one: 1 }] })]);
  });
});

describe('the pipeline', () => {
  it("writes a round's statements and its commit to the socket at once, in one system call", async () => {
    const own = await openDatabase(db.url, 1);
    try {
      const em = own.em.fork() as EntityManager;
      const pool = own.em.getConnection().getKnex().client as { acquireConnection(): Promise<{ connection: { stream: Socket } }>; releaseConnection(c: unknown): Promise<void> };
      const connection = await pool.acquireConnection();
      await pool.releaseConnection(connection);
      const socket = connection.connection.stream as Socket & { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
      const writes: string[] = [];
      for (const method of ['_write', '_writev'] as const) {
        const original = socket[method];
        socket[method] = (...args: unknown[]) => {
          writes.push(method);
          return original.apply(socket, args);
        };
      }
      const committed = await rawTransaction(em, [{ text: 'select ?::int as a', params: [1] }], async (tx) => {
        writes.length = 0;
        return tx.commitWith([{ text: 'select ?::int as b', params: [2] }, { text: 'select ?::int as c', params: [3] }, { text: 'select 4 as d' }]);
      });
      expect(committed).toEqual([[{ b: 2 }], [{ c: 3 }], [{ d: 4 }]]);
      // One buffer of all their messages, in one write.
      expect(writes).toEqual(['_write']);
    } finally {
      await own.close();
    }
  });
});

describe('rawQuery', () => {
  it('sends a typed array as one parameter, so that every length runs the one prepared statement', async () => {
    const em = orm.em.fork() as EntityManager;
    for (const ids of [[], ['1'], ['1', '2', '40']]) {
      const [{ rows }] = await rawQuery(em, sql.render(sql`select count(*)::int as n, coalesce(sum(x), 0)::int as total from unnest(${sql.array(ids, 'bigint')}) x`));
      expect(rows).toEqual([{ n: ids.length, total: ids.reduce((t, id) => t + Number(id), 0) }]);
    }
    const [{ rows: prepared }] = await rawQuery(em, { text: `select count(*)::int as n from pg_prepared_statements where statement like '%from unnest($1::bigint[]) x'` });
    expect(prepared).toEqual([{ n: 1 }]);
  });

  it('sends a statement marked customPlan unnamed, so that no run of it is planned generically (a listing sorted 5,000 lots so)', async () => {
    const em = orm.em.fork() as EntityManager;
    const listing = { text: 'select ?::int * 2 as doubled /* planned for its values */', customPlan: true };
    // Past the fifth run, a named statement may be planned generically.
    for (const n of [1, 2, 3, 4, 5, 6, 7]) {
      await expect(rawQuery(em, { ...listing, params: [n] })).resolves.toEqual([expect.objectContaining({ rows: [{ doubled: n * 2 }] })]);
    }
    const [{ rows: prepared }] = await rawQuery(em, { text: `select count(*)::int as n from pg_prepared_statements where statement like '%planned for its values */'` });
    expect(prepared).toEqual([{ n: 0 }]);
  });

  it("reads each named statement's rows by its own columns at every run, and parses afresh one whose result changed", async () => {
    const own = await openDatabase(db.url, 1);
    try {
      const em = own.em.fork() as EntityManager;
      await rawQuery(em, { text: 'create table described (id int, at timestamptz, price numeric(20,2), meta jsonb)' });
      const pipeline = (n: number) => [
        { text: 'insert into described values (?, ?, ?, ?)', params: [n, new Date(Date.UTC(2026, 0, n)), `${n}.50`, JSON.stringify({ n })] },
        { text: 'select id, at, price, meta from described where id = ?', params: [n] },
        { text: 'update described set price = price + 1 where id = ?', params: [n] },
        { text: 'select count(*)::int as rows, max(id) as last, bool_and(id > 0) as positive from described' },
      ];
      // Run after run, on the one connection: rows, no rows, rows, each by its own description.
      for (const n of [1, 2, 3, 4]) {
        const [inserted, selected, updated, counted] = await rawQuery(em, ...pipeline(n));
        expect(inserted).toEqual({ rows: [], rowCount: 1 });
        // Timestamps come as PostgreSQL's text on the ORM's connections (`timestamp` in src/db/raw.ts reads them).
        expect(selected.rows).toEqual([{ id: n, at: expect.stringMatching(/^2026-01-0\d/), price: `${n}.50`, meta: { n } }]);
        expect(new Date(selected.rows[0].at as string)).toEqual(new Date(Date.UTC(2026, 0, n)));
        expect(updated).toEqual({ rows: [], rowCount: 1 });
        expect(counted.rows).toEqual([{ rows: n, last: n, positive: true }]);
      }
      // A statement whose result changed under it fails once, then is parsed and described afresh.
      await rawQuery(em, { text: 'alter table described add column note text' });
      const all = { text: 'select * from described where id = ?', params: [1] };
      await expect(rawQuery(em, all)).resolves.toEqual([expect.objectContaining({ rows: [expect.objectContaining({ id: 1, note: null })] })]);
      await rawQuery(em, { text: 'alter table described add column extra int default 7' });
      await expect(rawQuery(em, all)).rejects.toThrow('cached plan must not change result type');
      await expect(rawQuery(em, all)).resolves.toEqual([expect.objectContaining({ rows: [{ id: 1, at: expect.stringMatching(/^2026-01-01/), price: '2.50', meta: { n: 1 }, note: null, extra: 7 }] })]);
    } finally {
      await own.close();
    }
  });

  it('parses a statement afresh on the connection where a failed pipeline skipped its parse, and answers the first failure', async () => {
    // A pool of one connection of its own, apart from the sessions the test above terminates.
    const own = await openDatabase(db.url, 1);
    try {
      const em = own.em.fork() as EntityManager;
      const fresh = { text: 'select ?::int + 2 as fresh', params: [1] };
      // The first statement fails, so the server skips the second one's parse along with the rest.
      await expect(rawQuery(em, { text: 'select 1 / (select 0) as boom' }, fresh)).rejects.toThrow('division by zero');
      await expect(rawQuery(em, fresh)).resolves.toEqual([expect.objectContaining({ rows: [{ fresh: 3 }] })]);
      await expect(rawQuery(em, fresh)).resolves.toEqual([expect.objectContaining({ rows: [{ fresh: 3 }] })]);
    } finally {
      await own.close();
    }
  });
});

describe('preparedRowsOf', () => {
  it("runs as a named statement in the ORM transaction it is called in: it sees the transaction's writes and rolls back with it", async () => {
    // Two connections: run on another one, the statement would neither see the transaction's row nor roll back with it.
    const pooled = await openDatabase(db.url, 2);
    await admin.query('create table prepared_probe (n int)');
    try {
      const failed = pooled.em.fork().transactional(async (em) => {
        await em.getConnection().execute('insert into prepared_probe values (1)', [], 'run', em.getTransactionContext());
        expect(await preparedRowsOf(em, sql`insert into prepared_probe select count(*)::int + 1 from prepared_probe returning n`)).toEqual([{ n: 2 }]);
        // A named statement is listed in its session's pg_prepared_statements, this one too as it runs.
        expect(await preparedRowsOf(em, sql`select count(*)::int as n from pg_prepared_statements where statement like '%prepared_marker%'`)).toEqual([{ n: 1 }]);
        throw new Error('the work failed');
      });
      await expect(failed).rejects.toThrow('the work failed');
      expect((await admin.query('select count(*)::int as n from prepared_probe')).rows).toEqual([{ n: 0 }]);
    } finally {
      await pooled.close();
      await admin.query('drop table prepared_probe');
    }
  });
});

describe('the bound on an answer', () => {
  it('destroys the socket of a connection whose statement got no answer in time, on the ORM path and the raw one, and serves on a new one', async () => {
    const own = await openDatabase(db.url, 1, 0, 300);
    try {
      const em = own.em.fork() as EntityManager;
      for (const late of [() => em.execute('select pg_sleep(3)'), () => rawQuery(em, { text: 'select pg_sleep(3)' })]) {
        const started = Date.now();
        await expect(late()).rejects.toThrow('the database did not answer within 300 ms');
        expect(Date.now() - started).toBeLessThan(2000);
        await expect(rawQuery(em, { text: 'select 1 as one' })).resolves.toEqual([expect.objectContaining({ rows: [{ one: 1 }] })]);
      }
    } finally {
      await own.close();
    }
  });
});
