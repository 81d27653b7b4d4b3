import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { launch, reapAll } from '../smoke/launch';

/**
 * A log.seed that holds no seed is a refusal of the start (LogKeyError is a StartRefusal, like a
 * bad master.seed: test/smoke/start-refusals.test.ts), yet it is met inside createApp, which the
 * start did not guard: the service ended in a fatal JSON line with a stack trace instead of the
 * one line saying what to do.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  reapAll();
  await db.drop();
});

it('refuses a log.seed that holds no seed in one line, with no stack trace, and keeps the file', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'log-seed-'));
  const seed = path.join(dataDir, 'log.seed');
  writeFileSync(seed, 'not a seed\n');
  const service = launch(process.execPath, ['dist/main.js'], dataDir, 0, { DATABASE_URL: db.url, JOBS: 'off', LOG_LEVEL: 'warn' });
  expect(await service.exited).toBe(1);
  expect(service.output()).toBe(`Cannot start: ${seed} holds no secret seed (S…, 56 characters): restore it, or set LOG_SIGNING_SEED\n`);
  expect(readFileSync(seed, 'utf8')).toBe('not a seed\n');
}, 120_000);
