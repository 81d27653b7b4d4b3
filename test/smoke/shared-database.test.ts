import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { freePort } from '../../src/db/embedded.host';
import { createEmptyDatabase, type TestDatabase } from '../helpers/db';
import { launch, reapAll, untilServing, type Launched } from './launch';

/** Instances of the service sharing one database, as an operator scales out. */
let db: TestDatabase;

beforeEach(async () => {
  db = await createEmptyDatabase();
});

afterEach(async () => {
  reapAll();
  await db.drop();
});

const instance = async (env: NodeJS.ProcessEnv): Promise<Launched> =>
  launch(process.execPath, ['dist/main.js'], mkdtempSync(path.join(tmpdir(), 'shared-db-')), await freePort(), { DATABASE_URL: db.url, ...env });

describe('instances started together on one fresh database', () => {
  it('take turns at the migrations: all three serve', async () => {
    const seed = Keypair.random().secret();
    const started = await Promise.all([1, 2, 3].map(() => instance({ MASTER_SEED: seed })));
    await Promise.all(started.map((s) => untilServing(s, 120_000)));
    for (const s of started) {
      expect((await s.client.get('/healthz')).status).toBe(200);
      expect(s.output()).not.toContain('failed to start');
    }
  }, 180_000);
});
