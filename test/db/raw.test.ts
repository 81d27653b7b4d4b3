import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { rawQuery, rawTransaction } from '../../src/db/raw';
import { openDatabase } from '../../src/db/orm';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

let db: TestDatabase;
let orm: MikroORM;
let admin: Client;

beforeAll(async () => {
  db = await createTestDatabase();
  // One connection: the caller waiting for it gets whatever the failed transaction gives back.
  orm = await openDatabase(db.url, 1);
  admin = new Client({ connectionString: db.url });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await orm.close();
  await db.drop();
});

describe('rawTransaction', () => {
  it('never gives the pool back a connection whose rollback failed', async () => {
    const em = orm.em.fork() as EntityManager;
    for (let round = 0; round < 5; round++) {
      let waiting: Promise<unknown> = Promise.resolve();
      const failed = rawTransaction(em, [{ text: 'select pg_backend_pid() as pid' }], async (_tx, [[opened]]) => {
        // The server ends the session while its transaction is open, so the rollback fails.
        await admin.query('select pg_terminate_backend($1)', [opened.pid]);
        waiting = rawQuery(em, { text: 'select 1 as one' });
        throw new Error('the work failed');
      });
      await expect(failed).rejects.toThrow('the work failed');
      await expect(waiting).resolves.toEqual([expect.objectContaining({ rows: [{ one: 1 }] })]);
    }
  });
});
