import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { freePort } from '../../src/db/embedded.host';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { launch, reapAll, untilServing, type Launched } from '../smoke/launch';

/**
 * Instances sharing a database share its master key (test/smoke/shared-database.test.ts), but each
 * generated a log key of its own in its DATA_DIR and served: receipts and checkpoints of one log
 * signed by as many keys as instances, each but one unknown to a verifier given the log's key.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  reapAll();
  await db.drop();
});

const instance = async (env: NodeJS.ProcessEnv): Promise<Launched> =>
  launch(process.execPath, ['dist/main.js'], mkdtempSync(path.join(tmpdir(), 'shared-log-')), await freePort(), { DATABASE_URL: db.url, JOBS: 'off', ...env });

it("refuses a second instance's own log key, and serves one given the first's", async () => {
  const MASTER_SEED = Keypair.random().secret();
  const a = await instance({ MASTER_SEED });
  await untilServing(a, 120_000);
  const logKey = Keypair.fromSecret(readFileSync(path.join(a.dataDir, 'log.seed'), 'utf8').trim()).publicKey();

  const b = await instance({ MASTER_SEED });
  expect(await b.exited).toBe(1);
  expect(b.output()).toMatch(
    new RegExp(`Cannot start: the database's bid log is signed by the log key ${logKey}, and this instance's \\(from \\S+log\\.seed\\) is G[A-Z2-7]{55}: set LOG_SIGNING_SEED or LOG_KEY_FILE to the same seed on every instance sharing the database\\n$`),
  );
  expect(b.output()).not.toMatch(/S[A-Z2-7]{55}/);

  const c = await instance({ MASTER_SEED, LOG_KEY_FILE: path.join(a.dataDir, 'log.seed') });
  await untilServing(c, 120_000);
  expect((await c.client.get('/log/checkpoint')).body.data.attributes.signer).toBe(logKey);
}, 300_000);
