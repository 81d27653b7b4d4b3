import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRowsOf, rowsOf } from '../../db/query';
import { alone, rawQuery } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import { DomainError } from '../../core/errors';
import type { Leaf } from './tlog.leaves';
import { holdKeyPeriod, signsAs } from './tlog.signing';
import { nodeHash, nodesCompleted, nodesRead, type NodeKey, type NodeSource } from './tlog.merkle';

/** Leaves hashed into nodes per statement: a backfill of millions is integrated in steps this size. */
const INTEGRATE_STEP = 20_000;

const keyOf = (level: number, index: number) => `${level}:${index}`;

/** A leaf the sequencer numbered, or one of the request's numbered before, by its hash in hex. */
interface NumberedRow {
  hash: string;
  idx: string;
}

/** A leaf appended by `appendLeaf`, by its insertion order. */
interface AppendedRow {
  seq: string;
}

/** A stored node (level 0: a leaf), its hash in hex. */
interface NodeRow {
  level: number;
  idx: string;
  hash: string;
}

/** How many leaves the stored nodes hash (`tlog_tree`), and how many have an index (`tlog_size`). */
interface IntegratedRow {
  integrated: string;
}
interface SizeRow {
  size: string;
}

/**
 * The CTEs that append `leaves` to the log inside a bigger statement, without a lock shared with
 * other lots: `sequence` numbers them once they committed. A bid round (`number`) also numbers
 * its own leaves at once when the log's counter row is free (`skip locked`: a round never waits
 * for another lot's) and no earlier leaf of its lot is still waiting for its index (its leaves
 * must follow them in the log); it then holds the row to its commit, and its receipt needs no
 * second transaction. `tlog_appended` answers each leaf's `bid_id` and `idx` (null when left to
 * the sequencer). The statement fails (`KEY_REPLACED`) once `signer` no longer signs the log: an
 * instance started before a rotation appends nothing its receipts would sign with a replaced key.
 */
export function appendCtes(lotId: string, leaves: (Leaf & { bidId: string | null; kind: string })[], signer: string, number = false): Sql {
  // The lot's earlier leaves are read in the statement's snapshot, taken under the lot's lock: one seen
  // waiting may have been numbered since (the round then leaves its own to the sequencer), never the reverse.
  const base = number
    ? sql`tlog_free as (
         select from tlog_size for update skip locked
       ), tlog_base as (
         update tlog_size set size = size + ${leaves.length}
          where exists (select from tlog_free) and not exists (select from tlog_leaves w where w.lot_id = ${lotId}::bigint and w.idx is null)
         returning size - ${leaves.length} as base
       ), `
    : sql`tlog_base as (select null::bigint as base where false), `;
  return sql`${base}tlog_appended as (
       insert into tlog_leaves (lot_id, bid_id, kind, data, hash, idx)
       select ${lotId}::bigint, l.bid_id, l.kind, l.data, decode(l.hash, 'hex'), (select base from tlog_base) + l.n - 1
         from unnest(${sql.array(leaves.map((l) => l.bidId), 'bigint')}, ${sql.array(leaves.map((l) => l.kind), 'text')},
                     ${sql.array(leaves.map((l) => l.data), 'text')}, ${sql.array(leaves.map((l) => l.hash.toString('hex')), 'text')})
              with ordinality as l(bid_id, kind, data, hash, n)
        where ${signsAs(signer)}
        order by l.n
       returning seq, bid_id, idx
     )`;
}

/** The log's counter row, held by the sequencer to its commit. */
const HOLD_COUNTER = sql`select size from tlog_size for update`;

/**
 * Gives every leaf the transaction sees without an index the next indexes, in the order they were
 * inserted, and answers the index of each leaf of `leafHashes` (given now, or before by another
 * instance), keyed by hash in hex. Its snapshot must be taken once the counter row is held, to see
 * every leaf numbered before: it is sent after `HOLD_COUNTER`, never with it in one statement.
 */
function numbering(leafHashes: readonly Buffer[]): Sql {
  // The request's leaves numbered before are found by hash, indexed for the proofs by hash: no index holds a leaf's bid, and a scan of the whole log per run grows with it.
  return sql`with pending as (
          select seq, (select size from tlog_size) + row_number() over (order by seq) - 1 as idx from tlog_leaves where idx is null
        ), numbered as (
          update tlog_leaves l set idx = p.idx from pending p where l.seq = p.seq returning l.hash, l.idx
        ), grown as (
          update tlog_size set size = size + (select count(*) from pending) where exists (select from pending)
        )
        select encode(hash, 'hex') as hash, idx::text from numbered
        union all
        select encode(hash, 'hex'), idx::text from tlog_leaves
         where hash in (select decode(h, 'hex') from unnest(${sql.array(leafHashes.map((h) => h.toString('hex')), 'text')}) as h) and idx is not null`;
}

const indexesOf = (rows: NumberedRow[]): Map<string, number> => new Map(rows.map((r) => [r.hash, Number(r.idx)]));

/**
 * The sequencer: under the log's counter row, numbers every leaf waiting (the committed ones,
 * and those of `em`'s transaction) and answers the indexes of `leafHashes` (`numbering`). The
 * lock is held for this statement and the commit only, and one run numbers the leaves of every
 * round that committed meanwhile, whatever its lot: the committed leaves stay a prefix of the
 * log, without a gap nor an index given twice.
 */
export async function sequence(em: EntityManager, leafHashes: readonly Buffer[]): Promise<Map<string, number>> {
  await rowsOf(em, HOLD_COUNTER);
  // Named, its array one parameter: sent as the ORM sends, each count of hashes was a text of its own, planned at every run (0.6–0.9 ms).
  return indexesOf(await preparedRowsOf<NumberedRow>(em, numbering(leafHashes)));
}

/**
 * `sequence` as a transaction of its own, its statements and commit sent in one round trip: the
 * run that numbers the rounds' leaves left waiting, once per batch of requests. Through the ORM it
 * took four round trips, and the requests of the run waited for each.
 */
export async function sequenceAlone(em: EntityManager, leafHashes: readonly Buffer[]): Promise<Map<string, number>> {
  const answers = await rawQuery(em, ...alone([sql.render(HOLD_COUNTER), sql.render(numbering(leafHashes))]));
  // begin, the generic plans, the counter, the numbering, commit.
  return indexesOf(answers[3].rows as unknown as NumberedRow[]);
}

/** Appends one leaf in `em`'s transaction and numbers it there with every leaf waiting; answers its index. */
export async function appendLeaf(em: EntityManager, lotId: string, leaf: Leaf, kind: string, signer: string): Promise<number> {
  await rowsOf(em, holdKeyPeriod);
  const [{ seq }] = await rowsOf<AppendedRow>(em, sql`with ${appendCtes(lotId, [{ ...leaf, bidId: null, kind }], signer)} select seq::text from tlog_appended`);
  await sequence(em, []);
  const [{ idx }] = await rowsOf<Pick<NumberedRow, 'idx'>>(em, sql`select idx::text from tlog_leaves where seq = ${seq}`);
  return Number(idx);
}

/** The stored hashes of these nodes (level 0 from the leaves). */
export async function readNodes(em: EntityManager, keys: readonly NodeKey[]): Promise<Map<string, Buffer>> {
  const leaves = keys.filter((k) => k.level === 0);
  const inner = keys.filter((k) => k.level > 0);
  // Named, each array one parameter: a checkpoint's leaves were one placeholder each, thousands of them planned at every run.
  const rows = await preparedRowsOf<NodeRow>(
    em,
    sql`select 0 as level, idx::text, encode(hash, 'hex') as hash from tlog_leaves where idx = any (${sql.array(leaves.map((k) => k.index), 'bigint')})
        union all
        select n.level, n.idx::text, encode(n.hash, 'hex') from tlog_nodes n
          join unnest(${sql.array(inner.map((k) => k.level), 'smallint')}, ${sql.array(inner.map((k) => k.index), 'bigint')}) as k(level, idx) on n.level = k.level and n.idx = k.idx`,
  );
  return new Map(rows.map((r) => [keyOf(Number(r.level), Number(r.idx)), Buffer.from(r.hash, 'hex')]));
}

/**
 * A leaf or node that the stored tree must hold and does not: it was deleted or lost outside the
 * service (the service never removes one). No proof can be given until it is restored.
 */
function lost(level: number, index: number): never {
  throw DomainError.of('internal', 'log_damaged', `the log's database lacks ${level === 0 ? `leaf ${index}` : `the node ${level}:${index} over leaves ${index * 2 ** level} to ${(index + 1) * 2 ** level - 1}`} (deleted or lost outside the service): the log cannot prove what depends on it until it is restored`);
}

/** Runs a computation over the stored tree: one read of the O(log n) nodes it needs. */
export async function overTree<T>(em: EntityManager, compute: (node: NodeSource) => T): Promise<T> {
  const nodes = await readNodes(em, nodesRead(compute));
  return compute((level, index) => nodes.get(keyOf(level, index)) ?? lost(level, index));
}

/**
 * Hashes the leaves appended since the last run into the nodes they complete, under the tree's
 * own row lock (bids append meanwhile; only another integration waits). Answers the size of the
 * tree now hashed: every committed leaf, or, in a transaction that appended, its own too.
 */
export async function integrate(em: EntityManager): Promise<number> {
  const [{ integrated }] = await rowsOf<IntegratedRow>(em, sql`select integrated::text from tlog_tree for update`);
  const [{ size }] = await rowsOf<SizeRow>(em, sql`select size::text from tlog_size`);
  let from = Number(integrated);
  const end = Number(size);
  while (from < end) {
    const to = Math.min(end, from + INTEGRATE_STEP);
    const { made, needed } = nodesCompleted(from, to);
    const nodes = await readNodes(em, [...needed, ...Array.from({ length: to - from }, (_, i) => ({ level: 0, index: from + i }))]);
    const stored = (level: number, index: number) => nodes.get(keyOf(level, index)) ?? lost(level, index);
    for (const { level, index } of made) {
      nodes.set(keyOf(level, index), nodeHash(stored(level - 1, 2 * index), stored(level - 1, 2 * index + 1)));
    }
    await preparedRowsOf(
      em,
      sql`insert into tlog_nodes (level, idx, hash)
          select level, idx, decode(hash, 'hex') from unnest(${sql.array(made.map((k) => k.level), 'smallint')}, ${sql.array(made.map((k) => k.index), 'bigint')},
                                                              ${sql.array(made.map((k) => (nodes.get(keyOf(k.level, k.index)) as Buffer).toString('hex')), 'text')}) as n(level, idx, hash)`,
    );
    from = to;
  }
  if (end !== Number(integrated)) await rowsOf(em, sql`update tlog_tree set integrated = ${end}`);
  return end;
}
