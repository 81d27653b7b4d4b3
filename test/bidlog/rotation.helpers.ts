import { Keypair } from '@stellar/stellar-sdk';
import { recordLogKey } from '../../src/modules/bidlog';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { FREE_LOT, join } from '../trading/trading.helpers';

/**
 * Two instances of one database around a rotation of the log's key (docs/bid-log.md, "The log's
 * key"): `before` signs with `oldKey` from the first start; `rotate()` starts the instance of
 * `newKey`, which replaces it (LOG_KEY_REPLACES). Registers its own beforeAll and afterAll.
 */
export interface Rotation {
  oldKey: Keypair;
  newKey: Keypair;
  before(): TestApp;
  rotate(): Promise<TestApp>;
  /** The instance `rotate()` started. */
  after(): TestApp;
  /** A bidder joined to a free lot of a platform, made through `before`. */
  bidderOnLot(): Promise<{ bidder: Keypair; lotId: string }>;
}

/** `env`: more settings both instances start with. */
export function rotationWorld(env: Record<string, string> = {}): Rotation {
  const master = Keypair.random().secret();
  const oldKey = Keypair.random();
  const newKey = Keypair.random();
  let db: TestDatabase;
  let before: TestApp;
  let after: TestApp | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    before = await startTestApp({ ...env, MASTER_SEED: master, LOG_SIGNING_SEED: oldKey.secret() }, db);
    await recordLogKey(before.orm.em.fork(), oldKey.publicKey(), null);
  });

  afterAll(async () => {
    await before.close();
    await after?.close();
    await db.drop();
  });

  return {
    oldKey,
    newKey,
    before: () => before,
    after: () => after as TestApp,
    async rotate() {
      after = await startTestApp({ ...env, MASTER_SEED: master, LOG_SIGNING_SEED: newKey.secret() }, db);
      expect(await recordLogKey(after.orm.em.fork(), newKey.publicKey(), oldKey.publicKey())).toBe(newKey.publicKey());
      return after;
    },
    async bidderOnLot() {
      const platform = await createPlatform(before);
      const bidder = await createAccount(before, platform);
      const lot = await createLot(before, platform, FREE_LOT);
      await join(before, bidder.keypair, lot.id);
      return { bidder: bidder.keypair, lotId: lot.id };
    },
  };
}

/** Connections of `app`'s database waiting for an advisory lock (the key's period), as PostgreSQL shows them. */
export async function waitingForPeriod(app: TestApp): Promise<number> {
  const rows = await app.orm.em.fork().getConnection().execute(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event = 'advisory'`);
  return Number(rows[0].n);
}
