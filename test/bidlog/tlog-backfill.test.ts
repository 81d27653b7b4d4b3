import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import type { MikroORM } from '@mikro-orm/postgresql';
import { checkLog } from '../../src/cli/tlog-check';
import { openDatabase } from '../../src/db/orm';
import { MIGRATIONS } from '../../src/modules';
import { startTestApp, type TestApp } from '../helpers/app';
import { createEmptyDatabase, type TestDatabase } from '../helpers/db';
import { exec } from '../helpers/process';

/**
 * A service upgraded from a version without the transparency log, whose lots' bids also predate
 * the hash chain: the migration that creates the log enters them, and the closes, as backfilled
 * leaves, so that every lot verifies and the verifier says which leaves were backfilled.
 */
const LOG = 'Migration20261127220000TransparencyLog';
let db: TestDatabase;
let orm: MikroORM;
let t: TestApp;
const lots: Record<'open' | 'sold', string> = { open: '', sold: '' };

beforeAll(async () => {
  db = await createEmptyDatabase();
  orm = await openDatabase(db.url);
  await orm.getMigrator().up({ to: MIGRATIONS[MIGRATIONS.findIndex((m) => m.name === LOG) - 1].name });
  const conn = orm.em.getConnection();
  const [p, a, b] = [Keypair.random().publicKey(), Keypair.random().publicKey(), Keypair.random().publicKey()];
  await conn.execute(`insert into accounts (id, account_type, platform_id) values (?, 2, ?), (?, 4, ?), (?, 4, ?)`, [p, p, a, p, b, p]);
  const lot = async (state: number, highest: string, winner: string | null) =>
    (
      await conn.execute<{ id: string }[]>(
        `insert into lots (lot_type, lot_state, currency, start_price, min_step, max_step, start_time, duration, end_time, organizer_id, publisher_id, details, highest_bid, winner_id)
         values (1, ?, 'USD', 1000, 10, 10000, now() - interval '1 hour', 86400, now() + interval '1 day', ?, ?, '{}', ?, ?) returning id::text`,
        [state, p, p, highest, winner],
      )
    )[0].id;
  lots.open = await lot(1, '24250.00', null);
  lots.sold = await lot(2, '1500.00', b);
  for (const [lotId, bids] of [
    [lots.open, [[a, '24000'], [b, '24250']]],
    [lots.sold, [[a, '1000'], [b, '1500']]],
  ] as const) {
    for (const [account, amount] of bids) {
      const [part] = await conn.execute<{ id: string }[]>(
        `insert into participants (lot_id, account_id, state, current_bid) values (?, ?, 1, ?) on conflict (lot_id, account_id) do update set current_bid = excluded.current_bid returning id::text`,
        [lotId, account, amount],
      );
      await conn.execute(`insert into bids (lot_id, participant_id, account_id, amount) values (?, ?, ?, ?)`, [lotId, part.id, account, amount]);
    }
  }
  await orm.getMigrator().up();
  t = await startTestApp({}, db);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await orm?.close();
});

it('enters the bids and closes made before the log as backfilled leaves, in one tree the verifier proves', async () => {
  const leaves = (await orm.em.getConnection().execute(`select lot_id::text, kind, data from tlog_leaves order by idx`)) as { lot_id: string; kind: string; data: string }[];
  expect(leaves.map((l) => [l.lot_id, l.kind])).toEqual([
    [lots.open, 'bid'],
    [lots.open, 'bid'],
    [lots.sold, 'bid'],
    [lots.sold, 'bid'],
    [lots.sold, 'close'],
  ]);
  expect(leaves.every((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(JSON.parse(l.data).backfilled_at))).toBe(true);

  for (const lotId of [lots.open, lots.sold]) {
    const result = await checkLog(t.baseUrl, { lotId, statePath: path.join(mkdtempSync(path.join(tmpdir(), 'tlog-backfill-')), 'state.json') });
    expect(result.problems).toEqual([]);
    expect(result.notes).toContain(lotId === lots.open ? 'backfilled when the log was created: leaves 0, 1' : 'backfilled when the log was created: leaves 2, 3, 4');
  }
});

it('lets npm run verify-bids pass a lot whose bids predate the hash chain, saying so', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tlog-backfill-'));
  const run = await exec(process.execPath, ['dist/cli/verify-bids.js', t.baseUrl, lots.open], { PATH: process.env.PATH, DATA_DIR: dir });
  expect(run.stdout).toMatch(/^the lot's bids predate the hash chain: they are verified by the transparency log's backfilled leaves$/m);
  expect(run.stdout).toMatch(/^backfilled when the log was created: leaves 0, 1$/m);
  expect(run.stdout).toMatch(/^OK$/m);
  expect(run.code).toBe(0);
});

it('still fails such a lot when its highest bid was moved after the backfill', async () => {
  await orm.em.getConnection().execute(`update lots set highest_bid = 30000 where id = ?`, [lots.open]);
  const result = await checkLog(t.baseUrl, { lotId: lots.open });
  expect(result.problems).toEqual(["the lot's highest_bid 30000.00 is not the log's 24250.00"]);
  await orm.em.getConnection().execute(`update lots set highest_bid = 24250 where id = ?`, [lots.open]);
});
