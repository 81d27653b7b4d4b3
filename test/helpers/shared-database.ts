import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.host';
import { launch, reapAll, type Launched } from '../smoke/launch';
import { createEmptyDatabase, type TestDatabase } from './db';

/**
 * Instances of the built service (`node dist/main.js`) sharing one fresh database per test, as an
 * operator scales out; each gets a DATA_DIR of its own under `prefix`, and every process is ended
 * after the test. Call at a test file's top level.
 */
export function sharedDatabase(prefix: string, common: () => NodeJS.ProcessEnv = () => ({})) {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createEmptyDatabase();
  });
  afterEach(async () => {
    reapAll();
    await db.drop();
  });
  return {
    get url() {
      return db.url;
    },
    instance: async (env: NodeJS.ProcessEnv): Promise<Launched> =>
      launch(process.execPath, ['dist/main.js'], mkdtempSync(path.join(tmpdir(), prefix)), await freePort(), { DATABASE_URL: db.url, ...common(), ...env }),
  };
}
