import type { MikroORM } from '@mikro-orm/postgresql';
import { openDatabase } from '../../src/db/orm';
import { MIGRATIONS } from '../../src/modules';
import { createEmptyDatabase, type TestDatabase } from '../helpers/db';

// docs/bid-log.md, "A key's period": a log rotated before rotations were logged gets its keys'
// periods from the checkpoints they signed.
const PERIODS = 'Migration20261128150000TlogKeyPeriods';
let db: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  db = await createEmptyDatabase();
  orm = await openDatabase(db.url);
  await orm.getMigrator().up({ to: MIGRATIONS[MIGRATIONS.findIndex((m) => m.name === PERIODS) - 1].name });
});

afterAll(async () => {
  await orm.close();
  await db.drop();
});

it('ends a replaced key at the first checkpoint of its successor, or at the leaves numbered at the upgrade when the successor signed none', async () => {
  const conn = orm.em.getConnection();
  // A signed checkpoints of 1 and 3 leaves, B (rotated to after A's last) of 5 and 8, C signs now and signed nothing yet.
  await conn.execute(`insert into tlog_keys (public_key, since, until) values ('A', now() - interval '3 hours', now() - interval '2 hours'),
                        ('B', now() - interval '2 hours', now() - interval '1 hour'), ('C', now() - interval '1 hour', null)`);
  await conn.execute(`insert into tlog_checkpoints (size, root, note, signer) values (1, '\\x00', '', 'A'), (3, '\\x00', '', 'A'), (5, '\\x00', '', 'B'), (8, '\\x00', '', 'B')`);
  await conn.execute(`update tlog_size set size = 9`);
  await orm.getMigrator().up({ to: PERIODS });
  const rows = await conn.execute<{ public_key: string; from_size: number; to_size: number | null; leaf_index: number | null }[]>(
    `select public_key, from_size::int, to_size::int, leaf_index::int from tlog_keys order by since`,
    [],
    'all',
  );
  expect(rows).toEqual([
    { public_key: 'A', from_size: 0, to_size: 5, leaf_index: null },
    { public_key: 'B', from_size: 5, to_size: 9, leaf_index: null },
    { public_key: 'C', from_size: 9, to_size: null, leaf_index: null },
  ]);
});
