import { Keypair } from '@stellar/stellar-sdk';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openDatabase } from '../../src/db/orm';
import { MIGRATIONS } from '../../src/modules';
import { createEmptyDatabase, type TestDatabase } from '../helpers/db';

/**
 * A database of the version before `extended_seconds`, with lots extended under a count of moves,
 * then upgraded: each lot is taken to have used its rules' extendBy per move, so the cap the count
 * now derives (maxExtensions × extendBy) leaves it no more time than the count did.
 */
const BACKFILL = 'Migration20261127160000ExtensionSeconds';
let db: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  db = await createEmptyDatabase();
  orm = await openDatabase(db.url);
}, 60_000);

afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

it('gives each lot extended under a count of moves the seconds those moves could add, and nothing to others', async () => {
  const before = MIGRATIONS[MIGRATIONS.findIndex((m) => m.name === BACKFILL) - 1].name;
  await orm.getMigrator().up({ to: before });
  const db = orm.em.getConnection();
  const [p, q] = [Keypair.random().publicKey(), Keypair.random().publicKey()];
  await db.execute(`insert into accounts (id, account_type, platform_id) values (?, 2, ?), (?, 2, ?)`, [p, p, q, q]);
  await db.execute(`insert into platform_rules (platform_id, version, rules, created_by) values (?, 1, '{"extendBy": 120, "maxExtensions": 3}', ?), (?, 1, '{"extendBy": null}', ?)`, [p, p, q, q]);
  const lot = async (publisher: string, version: number | null, extensions: number) =>
    (
      await db.execute<{ id: string }[]>(
        `insert into lots (lot_type, currency, start_price, buy_now_price, deposit, min_step, max_step, start_time, duration, end_time, organizer_id, publisher_id, details, rules_version, extensions)
         values (1, 'USD', 1000, 0, 0, 10, 100, now(), 86400, now() + interval '1 day', ?, ?, '{}', ?, ?) returning id`,
        [publisher, publisher, version, extensions],
      )
    )[0].id;
  const twice = await lot(p, 1, 2);
  const never = await lot(p, 1, 0);
  const noExtendBy = await lot(q, 1, 2);
  const noRules = await lot(p, null, 1);

  await orm.getMigrator().up({ to: BACKFILL });
  const rows = await db.execute<{ id: string; extended_seconds: number }[]>('select id::text, extended_seconds from lots order by id');
  expect(Object.fromEntries(rows.map((r) => [r.id, r.extended_seconds]))).toEqual({ [twice]: 240, [never]: 0, [noExtendBy]: 0, [noRules]: 0 });
});
