import type { EntityManager } from '@mikro-orm/postgresql';
import { inTransaction } from '../../src/core/transaction';
import { rowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import { sequence } from '../../src/modules/bidlog/tlog.store';
import { startTestApp, type TestApp } from '../helpers/app';

// The sequencer holds the log's counter row while it runs, and every bid round that finds the row
// held leaves its leaves to it: a run must cost the same on a log of millions of leaves as on a
// new one. It once found a request's leaves numbered before by their bid, which no index holds,
// and read the whole log at every run.
let t: TestApp;

const LEAVES = 50_000;

beforeAll(async () => {
  t = await startTestApp();
  const em = t.orm.em.fork();
  // A log this long, numbered, as years of bids leave it; ANALYZE lets the planner see its size.
  await rowsOf(
    em,
    sql`insert into tlog_leaves (lot_id, kind, data, hash, idx)
        select 0, 'close', 'leaf ' || g, sha256(convert_to('leaf ' || g, 'UTF8')), s.size + g - 1 from tlog_size s, generate_series(1, ${LEAVES}) g`,
  );
  await rowsOf(em, sql`update tlog_size set size = size + ${LEAVES}`);
  await rowsOf(em, sql`analyze tlog_leaves`);
});

afterAll(async () => {
  await t.close();
});

it("answers the index of a request's leaf numbered before without reading the whole log", async () => {
  const [leaf] = await rowsOf<{ hash: Buffer; idx: string }>(t.orm.em.fork(), sql`select hash, idx::text from tlog_leaves where data = ${'leaf 777'}`);
  // The connection's reads of the table not yet reported, counted as they happen (earlier transactions' included): the run's are the difference.
  const scanned = async (em: EntityManager) =>
    Number((await rowsOf<{ seq_scan: string }>(em, sql`select seq_scan::text from pg_stat_xact_user_tables where relname = 'tlog_leaves'`))[0].seq_scan);
  const { indexes, scans } = await inTransaction({ em: t.orm.em.fork() }, async (em) => {
    const before = await scanned(em);
    const answered = await sequence(em, [leaf.hash]);
    return { indexes: answered, scans: (await scanned(em)) - before };
  });
  expect(indexes.get(leaf.hash.toString('hex'))).toBe(Number(leaf.idx));
  expect(scans).toBe(0);
});
