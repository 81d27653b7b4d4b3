import { existsSync } from 'node:fs';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { sharedDatabase } from '../helpers/shared-database';
import { untilServing } from './launch';

/** Instances of the service sharing one database, as an operator scales out. */
const { instance } = sharedDatabase('shared-db-');

describe('instances started together on one fresh database', () => {
  it('take turns at the migrations: all three serve', async () => {
    const seed = Keypair.random().secret();
    // One log key too: instances sharing a database sign one bid log (test/smoke/log-key.test.ts).
    const logSeed = Keypair.random().secret();
    const started = await Promise.all([1, 2, 3].map(() => instance({ MASTER_SEED: seed, LOG_SIGNING_SEED: logSeed })));
    await Promise.all(started.map((s) => untilServing(s, 120_000)));
    for (const s of started) {
      expect((await s.client.get('/healthz')).status).toBe(200);
      expect(s.output()).not.toContain('failed to start');
    }
  }, 180_000);
});

describe('instances sharing a database', () => {
  it('refuse a master key other than the one the database started with, never printing a seed', async () => {
    const first = Keypair.random();
    const other = Keypair.random();
    const LOG_SIGNING_SEED = Keypair.random().secret();
    const a = await instance({ MASTER_SEED: first.secret(), LOG_SIGNING_SEED });
    await untilServing(a, 120_000);
    const b = await instance({ MASTER_SEED: other.secret(), LOG_SIGNING_SEED });
    expect(await b.exited).toBe(1);
    expect(b.output()).toBe(
      `Cannot start: the database belongs to the master account ${first.publicKey()}, and this instance's master key (from MASTER_SEED) is ${other.publicKey()}: set MASTER_SEED to the same seed on every instance sharing the database\n`,
    );
    const again = await instance({ MASTER_SEED: first.secret(), LOG_SIGNING_SEED });
    await untilServing(again, 120_000);
    expect((await a.client.get('/healthz')).status).toBe(200);
  }, 240_000);

  it('refuse the key a second instance generated for itself when no MASTER_SEED is set, and keep none of it', async () => {
    const a = await instance({});
    await untilServing(a, 120_000);
    const b = await instance({});
    expect(await b.exited).toBe(1);
    const seed = path.join(b.dataDir, 'master.seed');
    expect(b.output().replace(/G[A-Z2-7]{55}/, 'G…')).toBe(
      `Cannot start: the database belongs to the master account G…, and this instance has no master key (${seed} did not exist, and the one this start generated was not kept): ` +
        `copy master.seed from the DATA_DIR of an instance of this database, or set MASTER_SEED to the same seed on every instance sharing the database\n`,
    );
    expect(b.output()).not.toMatch(/S[A-Z2-7]{55}/);
    // Left behind, it would make every later start from this DATA_DIR refused the same way.
    expect(existsSync(seed)).toBe(false);
  }, 240_000);
});
