import { Bid } from '../../src/modules/bids/bids.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { appWithTwoPlatforms } from '../helpers/world';
import { startTestApp } from '../helpers/app';
import { createTestDatabase } from '../helpers/db';
import { JOBS_ENV, waitFor } from '../jobs/jobs.helpers';
import { join, pay } from '../trading/trading.helpers';

/** An idempotency key sent again by its account answers the first result; the write runs once. */
const world = appWithTwoPlatforms();

const SUBMIT = 'mutation($input: SubmitBidInput!) { submitBid(input: $input) { highestBid endTime bids { id amount createdAt } userErrors { code field } } }';

let bidder: CreatedAccount;
let other: CreatedAccount;
let lotId: string;

beforeAll(async () => {
  const { t, platform } = world;
  bidder = await createAccount(t, platform);
  other = await createAccount(t, platform);
  lotId = String((await createLot(t, platform)).id);
  for (const who of [bidder, other]) await pay(t, platform, await join(t, who.keypair, lotId));
});

const bidsOn = () => world.t.orm.em.fork().count(Bid, { lotId });
const submit = (who: CreatedAccount, input: Record<string, unknown>, at?: Date) =>
  world.t.client.as(who.keypair).graphql(SUBMIT, { input: { lotId, ...input } }, at ? { sign: { keypair: who.keypair, at } } : {});
const keyRows = async (key: string) => (await world.t.orm.em.fork().getConnection().execute(`select account_id, operation, result is not null as done from idempotency_keys where key = ?`, [key])) as { account_id: string; operation: string; done: boolean }[];

describe('idempotencyKey', () => {
  it('answers the first result again to the same account and places nothing more', async () => {
    const first = await submit(bidder, { amount: '1000', idempotencyKey: 'bid-1' });
    expect(first.body.data.submitBid.userErrors).toEqual([]);
    const again = await submit(bidder, { amount: '1000', idempotencyKey: 'bid-1' });
    expect(again.body).toEqual(first.body);
    expect(await bidsOn()).toBe(1);
    expect(await keyRows('bid-1')).toEqual([{ account_id: bidder.id, operation: 'submitBid', done: true }]);
  });

  it('refuses the key sent again with another input, or for another operation, and changes nothing', async () => {
    const reused = await submit(bidder, { amount: '1100', idempotencyKey: 'bid-1' });
    expect(reused.body.data.submitBid).toMatchObject({ bids: null, userErrors: [{ code: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotencyKey' }] });
    const elsewhere = await world.t.client.as(bidder.keypair).graphql('mutation($a: String!, $l: ID!) { addStar(input: { accountId: $a, lotId: $l, idempotencyKey: "bid-1" }) { watchlistEntry { lotId } userErrors { code } } }', { a: bidder.id, l: lotId });
    expect(elsewhere.body.data.addStar).toEqual({ watchlistEntry: null, userErrors: [{ code: 'IDEMPOTENCY_KEY_REUSED' }] });
    expect(await bidsOn()).toBe(1);
  });

  it("keeps one account's keys from another's: the same key of another account is its own call", async () => {
    const theirs = await submit(other, { amount: '1050', idempotencyKey: 'bid-1' });
    expect(theirs.body.data.submitBid.userErrors).toEqual([]);
    expect(theirs.body.data.submitBid.bids).toEqual([expect.objectContaining({ amount: '1050.00' })]);
    expect(await bidsOn()).toBe(2);
  });

  it('remembers no refusal: the key of a refused call runs again once the call can be taken', async () => {
    const low = await submit(bidder, { amount: '1000', idempotencyKey: 'bid-2' });
    expect(low.body.data.submitBid.userErrors).toEqual([{ code: 'BID_TOO_LOW', field: 'amount' }]);
    expect(await keyRows('bid-2')).toEqual([]);
    const taken = await submit(bidder, { amount: '1100', idempotencyKey: 'bid-3' });
    expect(taken.body.data.submitBid.userErrors).toEqual([]);
  });

  it('commits once when two calls with one key arrive together, and answers both the same', async () => {
    const before = await bidsOn();
    // Each call signed anew, as a retry is: two signatures of one millisecond would be one, and the second a replay.
    const now = Date.now();
    const [a, b] = await Promise.all([submit(other, { amount: '1200', idempotencyKey: 'race' }, new Date(now)), submit(other, { amount: '1200', idempotencyKey: 'race' }, new Date(now + 1))]);
    expect(a.body.data.submitBid.userErrors).toEqual([]);
    expect(b.body).toEqual(a.body);
    expect(await bidsOn()).toBe(before + 1);
  });

  it('refuses a malformed key naming it, before anything runs', async () => {
    for (const key of ['', ' ', 'x'.repeat(201), 'tab\there', 'ключ']) {
      const res = await submit(bidder, { amount: '5000', idempotencyKey: key });
      expect(res.body.data.submitBid.userErrors).toEqual([{ code: 'INVALID_FIELD', field: 'idempotencyKey' }]);
    }
    expect(await keyRows('')).toEqual([]);
  });

  it('takes a key past its 24 hours as new', async () => {
    await world.t.orm.em.fork().getConnection().execute(`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'bid-3'`);
    const fresh = await submit(bidder, { amount: '1300', idempotencyKey: 'bid-3' });
    expect(fresh.body.data.submitBid.userErrors).toEqual([]);
    expect(fresh.body.data.submitBid.bids).toEqual([expect.objectContaining({ amount: '1300.00' })]);
  });
});

it('the cleaner deletes keys past their lifetime and keeps the others', async () => {
  const db = await createTestDatabase();
  const t = await startTestApp({ ...JOBS_ENV, CLEANUP_INTERVAL_SECONDS: '1' }, db);
  try {
    const conn = t.orm.em.fork().getConnection();
    await conn.execute(`insert into idempotency_keys (account_id, key, operation, fingerprint, result, created_at) values ('A', 'old', 'submitBid', 'f', '{}', now() - interval '25 hours'), ('A', 'new', 'submitBid', 'f', '{}', now())`);
    await waitFor('the old key to go', async () => ((await conn.execute(`select key from idempotency_keys where key = 'old'`)) as unknown[]).length === 0);
    expect(await conn.execute(`select key from idempotency_keys`)).toEqual([{ key: 'new' }]);
  } finally {
    await t.close();
    await db.drop();
  }
});
