import { startTestApp, type TestApp } from '../helpers/app';
import { signHeaders } from '../helpers/client';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { FREE_LOT, join } from '../trading/trading.helpers';

// The bench's baseline (docs/benchmarks.md): the service without the transparency log, which it
// accepts under NODE_ENV=bench alone (test/unit/config.test.ts). Its bids make and append no leaf
// and carry no receipt, so that "with and without the log" measures the whole of the log's cost;
// each lot's own hash chain (the bid log) is kept as before.
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ NODE_ENV: 'bench', TLOG_APPEND: 'off' });
});
afterAll(async () => {
  await t.close();
});

it("places bids with no leaf and no receipt, and chains them in the lot's bid log", async () => {
  const platform = await createPlatform(t);
  const bidder = await createAccount(t, platform);
  const lot = await createLot(t, platform, FREE_LOT);
  await join(t, bidder.keypair, lot.id);
  const bid = (amount: string, prefer?: string) => {
    const target = `/lots/${lot.id}/bid_requests`;
    const body = { data: { type: 'bid_requests', attributes: { amount } } };
    const headers: Record<string, string> = { 'content-type': 'application/vnd.api+json', ...(prefer ? { prefer } : {}) };
    signHeaders('POST', target, headers, Buffer.from(JSON.stringify(body)), { keypair: bidder.keypair });
    return t.client.request('POST', target, { body, headers });
  };

  const plain = await bid('1000');
  expect({ status: plain.status, receipt: plain.headers['bid-receipt'] }).toEqual({ status: 204, receipt: undefined });
  const shown = await bid('1100', 'return=representation');
  expect({ status: shown.status, receipt: shown.body.meta.receipt, header: shown.headers['bid-receipt'] }).toEqual({ status: 200, receipt: null, header: undefined });

  const count = async (table: string) => Number((await t.orm.em.fork().getConnection().execute(`select count(*)::int as n from ${table}`))[0].n);
  expect({ leaves: await count('tlog_leaves'), entries: await count('bid_log'), bids: await count('bids') }).toEqual({ leaves: 0, entries: 2, bids: 2 });
});
