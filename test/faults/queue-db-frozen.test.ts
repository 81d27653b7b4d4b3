import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded';
import { isUnreachable } from '../../src/db/faults';
import { QueueDb } from '../../src/jobs/queue-db';
import { freezePostgres } from './freeze';

/** The job queue's own pool (pg-boss's statements, and the jobs a request's after-commit task inserts) on a frozen PostgreSQL of its own. */
let pg: EmbeddedPostgres;
let thaw: () => void = () => undefined;

beforeAll(async () => {
  pg = await startEmbeddedPostgres({ dir: mkdtempSync(path.join(tmpdir(), 'pg-queue-frozen-')) });
}, 120_000);

afterAll(async () => {
  thaw();
  await pg?.stop();
});

describe('the job queue on a frozen database', () => {
  it('gives up on a statement and on a connection within its bound, as the database out of reach, and serves again once it thaws', async () => {
    const queue = new QueueDb(pg.url, 1, () => undefined, 1000);
    try {
      await queue.executeSql('select 1');
      thaw = freezePostgres(pg.dataDir);
      // The pooled connection, then a new one (the timed-out one was destroyed, not pooled again).
      for (const _ of [1, 2]) {
        const started = Date.now();
        const failure = await queue.executeSql('select 1').then(() => null, (err: unknown) => err);
        expect({ unreachable: isUnreachable(failure), withinBound: Date.now() - started < 3000 }).toEqual({ unreachable: true, withinBound: true });
      }
      thaw();
      await expect(queue.executeSql('select 2 as two')).resolves.toMatchObject({ rows: [{ two: 2 }] });
    } finally {
      thaw();
      await queue.close(1000);
    }
  }, 60_000);
});
