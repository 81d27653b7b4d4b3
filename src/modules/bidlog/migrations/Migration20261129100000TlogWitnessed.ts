import { Migration } from '../../../db/migration';

export class Migration20261129100000TlogWitnessed extends Migration {
  override async up(): Promise<void> {
    // The newest checkpoint with at least `cosignatures` co-signatures, anchored on the ledger or
    // not (GET /log/checkpoint?anchored=…&cosignatures=…): one row read per request, where a search
    // of the checkpoints, kept forever, would walk back through every one that falls short. Sizes
    // only grow.
    this.addSql(`
      create table tlog_witnessed (
        anchored boolean not null,
        cosignatures int not null,
        size bigint not null,
        primary key (anchored, cosignatures)
      )`);
    this.addSql(`
      insert into tlog_witnessed (anchored, cosignatures, size)
      select v.anchored, n, max(c.size)
        from tlog_checkpoints c
        cross join lateral (select count(*)::int as k from tlog_cosignatures s where s.size = c.size) k
        cross join (values (false), (true)) v(anchored)
        cross join lateral generate_series(case when v.anchored then 0 else 1 end, k.k) n
       where not v.anchored or c.anchor_tx is not null
       group by v.anchored, n`);
    // Kept by the database as a checkpoint gains a co-signature or its anchor, whichever instance
    // writes them (one of an earlier release too, during a rolling upgrade). Under a lock per
    // checkpoint taken before counting: two co-signatures of one checkpoint committing together
    // would otherwise each count their own alone, and the pair would never be recorded.
    this.addSql(`
      create function tlog_witnessed_keep() returns trigger language plpgsql as $$
      declare
        signed int;
        on_ledger boolean;
      begin
        perform pg_advisory_xact_lock(hashtextextended('bid-log:witnessed:' || new.size::text, 0));
        select count(*)::int into signed from tlog_cosignatures where size = new.size;
        select anchor_tx is not null into on_ledger from tlog_checkpoints where size = new.size;
        insert into tlog_witnessed (anchored, cosignatures, size)
        select v.anchored, n, new.size
          from (values (false), (true)) v(anchored)
          cross join lateral generate_series(case when v.anchored then 0 else 1 end, signed) n
         where not v.anchored or on_ledger
        on conflict (anchored, cosignatures) do update set size = greatest(tlog_witnessed.size, excluded.size);
        return null;
      end $$`);
    this.addSql(`create trigger tlog_witnessed_cosigned after insert or update on tlog_cosignatures for each row execute function tlog_witnessed_keep()`);
    this.addSql(`
      create trigger tlog_witnessed_anchored after update of anchor_tx on tlog_checkpoints
        for each row when (old.anchor_tx is null and new.anchor_tx is not null) execute function tlog_witnessed_keep()`);
  }
}
