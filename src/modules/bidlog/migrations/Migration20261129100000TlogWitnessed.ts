import { Migration } from '../../../db/migration';

export class Migration20261129100000TlogWitnessed extends Migration {
  override async up(): Promise<void> {
    // The newest checkpoint with at least `cosignatures` co-signatures, anchored on the ledger or
    // not (GET /log/checkpoint?anchored=…&cosignatures=…): one row read per request, where a search
    // of the checkpoints, kept forever, would walk back through every one that falls short.
    // Kept by the co-signing and the anchor job (tlog.witnessed.ts); sizes only grow.
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
  }
}
