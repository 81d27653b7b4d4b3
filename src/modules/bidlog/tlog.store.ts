import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';
import type { Leaf } from './tlog.leaves';
import { nodeHash, nodesCompleted, nodesRead, type NodeKey, type NodeSource } from './tlog.merkle';

/** Leaves hashed into nodes per statement: a backfill of millions is integrated in steps this size. */
const INTEGRATE_STEP = 20_000;

const keyOf = (level: number, index: number) => `${level}:${index}`;

/**
 * The CTEs that append `leaves` to the log inside a bigger statement (the bid round's write):
 * the counter's row lock orders the appends of every transaction, so the committed leaves are
 * always a prefix of the log. `tlog_appended` answers each leaf's index.
 */
export function appendCtes(lotId: string, leaves: (Leaf & { bidId: string | null; kind: string; salt: string | null })[]): Sql {
  return sql`tlog_base as (
       update tlog_size set size = size + ${leaves.length} returning size - ${leaves.length} as base
     ), tlog_appended as (
       insert into tlog_leaves (idx, lot_id, bid_id, kind, data, hash, bidder_salt)
       select t.base + l.n - 1, ${lotId}::bigint, l.bid_id, l.kind, l.data, decode(l.hash, 'hex'), l.salt
         from tlog_base t, unnest(${sql.array(leaves.map((l) => l.bidId), 'bigint')}, ${sql.array(leaves.map((l) => l.kind), 'text')},
                                  ${sql.array(leaves.map((l) => l.data), 'text')}, ${sql.array(leaves.map((l) => l.hash.toString('hex')), 'text')},
                                  ${sql.array(leaves.map((l) => l.salt), 'text')}) with ordinality as l(bid_id, kind, data, hash, salt, n)
       returning idx::text, bid_id::text
     )`;
}

/** Appends one leaf in `em`'s transaction; answers its index. */
export async function appendLeaf(em: EntityManager, lotId: string, leaf: Leaf, kind: string): Promise<number> {
  const [row] = await rowsOf<{ idx: string }>(em, sql`with ${appendCtes(lotId, [{ ...leaf, bidId: null, kind, salt: null }])} select idx from tlog_appended`);
  return Number(row.idx);
}

/** The stored hashes of these nodes (level 0 from the leaves). */
export async function readNodes(em: EntityManager, keys: readonly NodeKey[]): Promise<Map<string, Buffer>> {
  const leaves = keys.filter((k) => k.level === 0);
  const inner = keys.filter((k) => k.level > 0);
  const rows = await rowsOf<{ level: number; idx: string; hash: string }>(
    em,
    sql`select 0 as level, idx::text, encode(hash, 'hex') as hash from tlog_leaves where idx = any (${sql.array(leaves.map((k) => k.index), 'bigint')})
        union all
        select n.level, n.idx::text, encode(n.hash, 'hex') from tlog_nodes n
          join unnest(${sql.array(inner.map((k) => k.level), 'smallint')}, ${sql.array(inner.map((k) => k.index), 'bigint')}) as k(level, idx) on n.level = k.level and n.idx = k.idx`,
  );
  return new Map(rows.map((r) => [keyOf(Number(r.level), Number(r.idx)), Buffer.from(r.hash, 'hex')]));
}

/** Runs a computation over the stored tree: one read of the O(log n) nodes it needs. */
export async function overTree<T>(em: EntityManager, compute: (node: NodeSource) => T): Promise<T> {
  const nodes = await readNodes(em, nodesRead(compute));
  return compute((level, index) => {
    const hash = nodes.get(keyOf(level, index));
    if (!hash) throw new Error(`the log's node ${level}:${index} is not stored`);
    return hash;
  });
}

/**
 * Hashes the leaves appended since the last run into the nodes they complete, under the tree's
 * own row lock (bids append meanwhile; only another integration waits). Answers the size of the
 * tree now hashed: every committed leaf, or, in a transaction that appended, its own too.
 */
export async function integrate(em: EntityManager): Promise<number> {
  const [{ integrated }] = await rowsOf<{ integrated: string }>(em, sql`select integrated::text from tlog_tree for update`);
  const [{ size }] = await rowsOf<{ size: string }>(em, sql`select size::text from tlog_size`);
  let from = Number(integrated);
  const end = Number(size);
  while (from < end) {
    const to = Math.min(end, from + INTEGRATE_STEP);
    const { made, needed } = nodesCompleted(from, to);
    const nodes = await readNodes(em, [...needed, ...Array.from({ length: to - from }, (_, i) => ({ level: 0, index: from + i }))]);
    for (const { level, index } of made) {
      nodes.set(keyOf(level, index), nodeHash(nodes.get(keyOf(level - 1, 2 * index)) as Buffer, nodes.get(keyOf(level - 1, 2 * index + 1)) as Buffer));
    }
    await rowsOf(
      em,
      sql`insert into tlog_nodes (level, idx, hash)
          select level, idx, decode(hash, 'hex') from unnest(${sql.array(made.map((k) => k.level), 'smallint')}, ${sql.array(made.map((k) => k.index), 'bigint')},
                                                              ${sql.array(made.map((k) => (nodes.get(keyOf(k.level, k.index)) as Buffer).toString('hex')), 'text')}) as n(level, idx, hash)`,
    );
    from = to;
  }
  await rowsOf(em, sql`update tlog_tree set integrated = ${end}`);
  return end;
}
