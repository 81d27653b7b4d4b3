import { Migration } from '../../../db/migration';

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const leafHash = (data: string) => `sha256('\\x00'::bytea || convert_to(${data}, 'UTF8'))`;

export class Migration20261127220000TransparencyLog extends Migration {
  override async up(): Promise<void> {
    // The leaves in log order; `data` is the exact text hashed (docs/bid-log.md, "The transparency log").
    this.addSql(`
      create table tlog_leaves (
        idx bigint primary key,
        lot_id bigint not null,
        bid_id bigint null,
        kind varchar(8) not null,
        data text not null,
        hash bytea not null,
        bidder_salt char(32) null
      )`);
    this.addSql(`create index tlog_leaves_lot on tlog_leaves (lot_id, idx)`);
    // The appends' counter: its row lock, held from a round's write to its commit, orders the
    // appends, so that the committed leaves are always a prefix of the log.
    this.addSql(`create table tlog_size (id boolean primary key default true check (id), size bigint not null)`);
    // How far the checkpointer has hashed the tree: its own row, so that hashing never waits for a bid nor a bid for it.
    this.addSql(`create table tlog_tree (id boolean primary key default true check (id), integrated bigint not null)`);
    // The hashes of the complete subtrees above the leaves: level k, index i covers leaves [i·2^k, (i+1)·2^k).
    this.addSql(`create table tlog_nodes (level smallint not null, idx bigint not null, hash bytea not null, primary key (level, idx))`);
    this.addSql(`
      create table tlog_checkpoints (
        size bigint primary key,
        root bytea not null,
        note text not null,
        signer varchar(56) not null,
        created_at timestamptz not null default now()
      )`);

    // Bids and outcomes from before the log enter it now, marked with the time of the backfill:
    // the bids in the order they were placed, then the outcomes of the lots already closed.
    this.addSql(`
      insert into tlog_leaves (idx, lot_id, bid_id, kind, data, hash, bidder_salt)
      select n - 1, lot_id, id, 'bid', data, ${leafHash('data')}, salt from (
        select row_number() over (order by b.id) as n, b.lot_id, b.id, s.salt,
               json_build_object('v', 'bid_tlog/1', 'kind', 'bid', 'lot_id', b.lot_id::text, 'bid_id', b.id::text, 'amount', b.amount::text,
                                 'created_at', ${iso('b.created_at')}, 'by_proxy', b.placed_by_proxy, 'request_digest', e.request_digest,
                                 'bidder_commitment', encode(sha256(convert_to(s.salt || ':' || b.account_id, 'UTF8')), 'hex'),
                                 'backfilled_at', ${iso('now()')})::text as data
          from bids b left join bid_log e on e.bid_id = b.id
         cross join lateral (select coalesce(e.bidder_salt, md5(gen_random_uuid()::text)) as salt) s
      ) backfill`);
    this.addSql(`
      insert into tlog_leaves (idx, lot_id, kind, data, hash)
      select (select count(*) from tlog_leaves) + n - 1, id, kind, data, ${leafHash('data')} from (
        select row_number() over (order by l.id) as n, l.id, o.kind,
               json_build_object('v', 'bid_tlog/1', 'kind', o.kind, 'lot_id', l.id::text, 'lot_state', case l.lot_state when 2 then 'sold' else 'finished' end,
                                 'highest_bid', l.highest_bid::text, 'winner_id', l.winner_id,
                                 'bids', (select count(*) from bids b where b.lot_id = l.id),
                                 'at', coalesce(h.signed_at, ${iso('l.updated_at')}), 'backfilled_at', ${iso('now()')})::text as data
          from lots l left join bid_log_heads h on h.lot_id = l.id
         cross join lateral (select case when l.lapsed_at is not null and l.lot_state = 3 then 'lapse' else 'close' end as kind) o
         where l.lot_state in (2, 3)
      ) backfill`);
    this.addSql(`insert into tlog_size (size) select count(*) from tlog_leaves`);
    this.addSql(`insert into tlog_tree (integrated) values (0)`);
  }
}
