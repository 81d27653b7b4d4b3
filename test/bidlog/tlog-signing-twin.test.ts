import { Keypair } from '@stellar/stellar-sdk';
import { rowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import { recordLogKey } from '../../src/modules/bidlog';
import { replacingKeyOf, signsAs } from '../../src/modules/bidlog/tlog.signing';
import { startTestApp, type TestApp } from '../helpers/app';

// "This key signs the log now" twice: `recordLogKey` answers the current key, the database's
// `tlog_signs` refuses every other one. On the same rows, they must agree.
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t.close();
});

/** What the SQL twin says of `key`: 'signs', or the key it names as the one that replaced it. */
async function sqlSays(key: string): Promise<string> {
  try {
    await rowsOf(t.orm.em.fork(), sql`select ${signsAs(key)}`);
    return 'signs';
  } catch (err) {
    const current = replacingKeyOf(err);
    if (current === null) throw err;
    return current;
  }
}

it('agrees with the recorded key history before any key, after the first, and after each rotation', async () => {
  const [a, b, c] = [Keypair.random().publicKey(), Keypair.random().publicKey(), Keypair.random().publicKey()];
  // No key recorded yet (an app that skipped the start's agreement): any key may sign.
  expect(await Promise.all([a, b, c].map(sqlSays))).toEqual(['signs', 'signs', 'signs']);

  for (const [key, replaces] of [
    [a, null],
    [b, a],
    [c, b],
    // Not a rotation (names a replaced key): the current key stays.
    [a, c],
  ] as const) {
    const current = await recordLogKey(t.orm.em.fork(), key, replaces);
    const expected = [a, b, c].map((k) => (k === current ? 'signs' : current));
    expect(await Promise.all([a, b, c].map(sqlSays))).toEqual(expected);
  }
});
