import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';

/**
 * `tlog_witnessed`: the newest checkpoint with at least N co-signatures, anchored or not, so that
 * GET /log/checkpoint?cosignatures=N&anchored=… reads one row however many checkpoints fall short.
 *
 * A checkpoint gains co-signatures (POST /log/cosign) and its anchor (the anchor job) in separate
 * transactions, each of which counts what the other wrote. Both take the checkpoint's lock below
 * before they count: without it two witnesses co-signing one checkpoint at once would each count
 * their own line alone, and the pair would never be recorded.
 */
const lockOf = (size: Sql) => sql`pg_advisory_xact_lock(hashtextextended('bid-log:witnessed:' || ${size}::text, 0))`;

/** After a checkpoint's co-signatures were stored, in their transaction. */
export async function recordCosigned(em: EntityManager, size: number): Promise<void> {
  await rowsOf(em, sql`select ${lockOf(sql`${size}`)}`);
  await rowsOf(
    em,
    sql`insert into tlog_witnessed (anchored, cosignatures, size)
        select v.anchored, n, c.size
          from tlog_checkpoints c
          cross join lateral (select count(*)::int as k from tlog_cosignatures s where s.size = c.size) k
          cross join (values (false), (true)) v(anchored)
          cross join lateral generate_series(1, k.k) n
         where c.size = ${size} and (not v.anchored or c.anchor_tx is not null)
        on conflict (anchored, cosignatures) do update set size = greatest(tlog_witnessed.size, excluded.size)`,
  );
}

/** After checkpoints were anchored, in the anchor's transaction (sizes locked in order: two runs never wait on each other in a circle). */
export async function recordAnchored(em: EntityManager, sizes: readonly string[]): Promise<void> {
  await rowsOf(em, sql`select count(${lockOf(sql`s`)}) from (select unnest(${sql.array(sizes, 'bigint')}) as s order by s) ordered`);
  await rowsOf(
    em,
    sql`insert into tlog_witnessed (anchored, cosignatures, size)
        select true, n, max(c.size)
          from tlog_checkpoints c
          cross join lateral (select count(*)::int as k from tlog_cosignatures s where s.size = c.size) k
          cross join lateral generate_series(0, k.k) n
         where c.size = any (${sql.array(sizes, 'bigint')})
         group by n
        on conflict (anchored, cosignatures) do update set size = greatest(tlog_witnessed.size, excluded.size)`,
  );
}

/** The size of the newest checkpoint anchored (or not) with at least `cosignatures` co-signatures, as SQL. */
export const witnessedSize = (anchored: boolean, cosignatures: number) =>
  sql`(select size from tlog_witnessed where anchored = ${anchored} and cosignatures = ${cosignatures})`;
