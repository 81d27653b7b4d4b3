// The minimal contract transaction, the baseline of the bids over 100 lots: the least work the
// contract demands of an accepted bid, on tables that carry only what that work needs (primary
// keys and a `bids (lot_id, amount)` index), prepared and pipelined through node-postgres'
// pipeline mode, one connection per client:
//
//   round trip 1: begin; the replay record's insert; the lot's row locked and read
//   round trip 2: the bid's insert; the lot's highest bid (and leader) updated; the previous
//                 leader's overbid notification inserted; commit
//
// It lives in a schema of its own (`minimal`) beside the service's tables in the bench's database.
import { randomBytes } from 'node:crypto';

/** Creates the minimal tables, with one row per lot of `lots` (start price 1000, step 0.01). */
export async function prepareMinimal(pool, lots) {
  await pool.query(`
    create schema minimal;
    create table minimal.lots (id bigint primary key, highest_bid numeric(20, 2), leader text, start_price numeric(20, 2) not null, min_step numeric(20, 2) not null);
    create table minimal.bids (id bigserial primary key, lot_id bigint not null, account_id text not null, amount numeric(20, 2) not null);
    create index on minimal.bids (lot_id, amount);
    create table minimal.replays (digest bytea primary key, expires_at timestamptz not null);
    create table minimal.notifications (id bigserial primary key, recipient text not null, type int not null, meta jsonb not null);`);
  await pool.query('insert into minimal.lots (id, start_price, min_step) select unnest($1::bigint[]), 1000, 0.01', [lots]);
}

const REPLAY = `insert into minimal.replays (digest, expires_at) values ($1, now() + interval '10 minutes')`;
const LOCK = 'select highest_bid, leader, start_price, min_step from minimal.lots where id = $1 for update';
const BID = 'insert into minimal.bids (lot_id, account_id, amount) values ($1, $2, $3)';
const RAISE = 'update minimal.lots set highest_bid = $2, leader = $3 where id = $1';
const OVERBID = `insert into minimal.notifications (recipient, type, meta) values ($1, 6, jsonb_build_object('lot_id', $2::text))`;

/** One bid through the minimal transaction on a client of a `pipeline: true` pool: 'accepted', 'refused' or 'failed'. */
export async function minimalBid(pool, lotId, accountId, amount) {
  const client = await pool.connect();
  try {
    const [, , { rows }] = await Promise.all([
      client.query('begin'),
      client.query({ name: 'minimal_replay', text: REPLAY, values: [randomBytes(32)] }),
      client.query({ name: 'minimal_lock', text: LOCK, values: [lotId] }),
    ]);
    const lot = rows[0];
    const floor = lot.highest_bid === null ? Number(lot.start_price) : Number(lot.highest_bid) + Number(lot.min_step);
    if (amount < floor) {
      await client.query('rollback');
      return 'refused';
    }
    const writes = [client.query({ name: 'minimal_bid', text: BID, values: [lotId, accountId, amount] }), client.query({ name: 'minimal_raise', text: RAISE, values: [lotId, amount, accountId] })];
    if (lot.leader !== null && lot.leader !== accountId) writes.push(client.query({ name: 'minimal_overbid', text: OVERBID, values: [lot.leader, lotId] }));
    await Promise.all([...writes, client.query('commit')]);
    return 'accepted';
  } catch {
    await client.query('rollback').catch(() => {});
    return 'failed';
  } finally {
    client.release();
  }
}
