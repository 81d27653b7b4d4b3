import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import { freePort } from '../../src/db/embedded.host';
import { holdKeyPeriod } from '../../src/modules/bidlog';
import { sql } from '../../src/db/sql';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { launch, type Launched, reapAll, untilServing } from './launch';

// docs/bid-log.md, "The log's key": a start that rotates the key (LOG_KEY_REPLACES) waits 3 s at
// most for the appends under way, and any start waits 4 s at most for another one recording the
// key. An append that does not end (a transaction left open), or a start stopped while it held the
// key's table, must not hold the start for as long as it lasts, nor leave it half done: the
// operator gets one line, the log keeps its key, and the same start goes through once it ended.
const master = Keypair.random();
const oldKey = Keypair.random();
const newKey = Keypair.random();
let db: TestDatabase;
let holder: Client;

beforeAll(async () => {
  db = await createTestDatabase();
  holder = new Client({ connectionString: db.url });
  await holder.connect();
  await holder.query('insert into tlog_keys (public_key) values ($1)', [oldKey.publicKey()]);
}, 60_000);

afterAll(async () => {
  reapAll();
  await holder?.end();
  await db?.drop();
});

const starting = async (extra: NodeJS.ProcessEnv = {}): Promise<Launched> =>
  launch(process.execPath, ['dist/main.js'], mkdtempSync(path.join(tmpdir(), 'start-blocked-')), await freePort(), {
    DATABASE_URL: db.url,
    MASTER_SEED: master.secret(),
    LOG_SIGNING_SEED: newKey.secret(),
    ...extra,
  });
const rotating = () => starting({ LOG_KEY_REPLACES: oldKey.publicKey() });

const currentKeys = async () => (await holder.query<{ public_key: string }>('select public_key from tlog_keys where until is null')).rows.map((r) => r.public_key);

/** How a start held by `hold` (a statement of the open transaction of another session) ended, within 30 s. */
async function whileHeld(hold: string, start: () => Promise<Launched>): Promise<{ code: number | null; output: string }> {
  await holder.query('begin');
  await holder.query(hold);
  const began = Date.now();
  const blocked = await start();
  const code = await blocked.exited;
  expect(Date.now() - began).toBeLessThan(30_000);
  return { code, output: blocked.output() };
}

/** Once the other session let go, the same start serves, with the new key. */
async function startsOnceLetGo(start: () => Promise<Launched>): Promise<void> {
  await holder.query('commit');
  const again = await start();
  await untilServing(again);
  expect(await currentKeys()).toEqual([newKey.publicKey()]);
  again.child.kill('SIGTERM');
  expect(await again.exited).toBe(0);
}

it('refuses in one line while an append holds the period, changes nothing, and rotates once it ended', async () => {
  expect(await whileHeld(sql.render(holdKeyPeriod).text, rotating)).toEqual({
    code: 1,
    output:
      "Cannot start: the rotation of the bid log's key waited 3 s for the appends under way to end, in vain (a transaction holds them: see pg_stat_activity); nothing was changed, the log's key is still the one it replaces: start this instance again\n",
  });
  expect(await currentKeys()).toEqual([oldKey.publicKey()]);
  expect((await holder.query(`select count(*)::int as n from tlog_leaves where kind = 'key'`)).rows).toEqual([{ n: 0 }]);
  await startsOnceLetGo(rotating);
}, 90_000);

it("refuses in one line while another start holds the key's table, and starts once it let go", async () => {
  expect(await whileHeld('lock table tlog_keys in share row exclusive mode', starting)).toEqual({
    code: 1,
    output:
      "Cannot start: this start waited 4 s for another one recording the bid log's key, in vain (a transaction holds the table tlog_keys: see pg_stat_activity); nothing was changed: start this instance again\n",
  });
  await startsOnceLetGo(starting);
}, 90_000);
