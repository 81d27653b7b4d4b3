import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TransactionBuilder, type Transaction } from '@stellar/stellar-sdk';
import { logger } from '../../src/core/logger';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { horizonRecord } from '../ledger/ledger.helpers';
import { FREE_LOT, join } from '../trading/trading.helpers';

// The ledger behind HORIZON_URL goes away while bids arrive (docs/bid-log.md, "Anchors"): bids and
// checkpoints go on as before, the checkpoints wait unanchored, and once the ledger answers again
// the anchor job takes every one of them, through the real job queue. Each outage is said in one
// warning line as it begins, however many runs fail, and its end in one line.
type Mode = 'up' | 'down' | 'hang';
// Up until the test takes it down: an outage already under way would have been said before the test looks.
let mode: Mode = 'up';
let horizon: Server;
const hung: ServerResponse[] = [];
const submitted: Transaction[] = [];
let t: TestApp;

function account(id: string) {
  const thresholds = { low_threshold: 0, med_threshold: 0, high_threshold: 0 };
  return { id, account_id: id, paging_token: id, sequence: String(100 + submitted.length), sequence_ledger: 1, subentry_count: 0, thresholds, flags: {}, balances: [], signers: [], data: {}, last_modified_ledger: 1 };
}

beforeAll(async () => {
  horizon = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (mode === 'hang') return void hung.push(res);
      if (mode === 'down') return void res.writeHead(503, { 'content-type': 'application/problem+json' }).end('{"status":503,"title":"Historical DB Is Too Stale"}');
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path.startsWith('/accounts/')) return void res.writeHead(200, { 'content-type': 'application/hal+json' }).end(JSON.stringify(account(path.slice('/accounts/'.length))));
      if (req.method === 'POST' && path === '/transactions') {
        const tx = TransactionBuilder.fromXDR(new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('tx') as string, t.config.NETWORK_PASSPHRASE) as Transaction;
        submitted.push(tx);
        return void res.writeHead(200, { 'content-type': 'application/hal+json' }).end(JSON.stringify(horizonRecord(tx)));
      }
      res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
    });
  });
  await new Promise<void>((resolve) => horizon.listen(0, '127.0.0.1', resolve));
  t = await startTestApp({
    HORIZON_URL: `http://127.0.0.1:${(horizon.address() as AddressInfo).port}`,
    JOBS: 'on',
    JOBS_POLL_SECONDS: '0.5',
    CHECKPOINT_SECONDS: '0.5',
    ANCHOR_SECONDS: '1',
    // A hung read must give up for the next run to anchor; how long it waits first is not what this file tests.
    HORIZON_ANSWER_SECONDS: '2',
  });
});

afterAll(async () => {
  for (const res of hung) res.destroy();
  await t.close();
  await new Promise((resolve) => horizon.close(resolve));
});

const unanchored = async () => Number((await t.orm.em.fork().getConnection().execute(`select count(*) as n from tlog_checkpoints where anchor_tx is null`))[0].n);
const checkpoints = async () => Number((await t.orm.em.fork().getConnection().execute(`select count(*) as n from tlog_checkpoints`))[0].n);

async function until(what: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await what()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return what();
}

it('keeps taking bids and signing checkpoints while the ledger is down or hangs, and anchors every checkpoint once it answers', async () => {
  const platform = await createPlatform(t);
  const bidder = await createAccount(t, platform);
  const lot = await createLot(t, platform, FREE_LOT);
  await join(t, bidder.keypair, lot.id);
  let amount = 1000;
  const bidWhile = async (ms: number) => {
    const deadline = Date.now() + ms;
    const times: number[] = [];
    while (Date.now() < deadline) {
      const began = Date.now();
      const res = await t.client.as(bidder.keypair).post(`/lots/${lot.id}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount: String((amount += 100)) } } });
      expect(res.status).toBe(204);
      times.push(Date.now() - began);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    return times;
  };

  const warn = jest.spyOn(logger, 'warn');
  const info = jest.spyOn(logger, 'info');
  const said = (spy: jest.SpyInstance, text: string) => spy.mock.calls.filter((args: unknown[]) => args.some((a) => typeof a === 'string' && a.startsWith(text)));
  for (const outage of ['down', 'hang'] as const) {
    warn.mockClear();
    info.mockClear();
    mode = outage;
    submitted.length = 0;
    const before = await checkpoints();
    const times = await bidWhile(4000);
    // Nothing waits for the ledger: every bid answered well within a second, and the checkpoints went on.
    expect(Math.max(...times)).toBeLessThan(1000);
    expect(await checkpoints()).toBeGreaterThan(before);
    expect(await unanchored()).toBeGreaterThan(0);
    expect(submitted).toHaveLength(0);

    mode = 'up';
    await bidWhile(1000);
    // A hung read gives up after HORIZON_ANSWER_SECONDS: that run fails, the next anchors.
    expect(await until(async () => (await unanchored()) === 0, 25_000)).toBe(true);
    expect(submitted.length).toBeGreaterThan(0);
    // Runs every second: a down ledger failed several, yet the outage is one warning, naming what failed, and its end one line.
    expect(said(warn, 'checkpoints not anchored: ')).toEqual([[expect.stringMatching(/^checkpoints not anchored: .+; the job tries again every 1 s and says when the ledger answers$/)]]);
    // The run logs its end just after its commit, which the poll above may see first.
    expect(await until(async () => said(info, 'the ledger answers again').length > 0, 2000)).toBe(true);
    expect(said(info, 'the ledger answers again')).toHaveLength(1);
  }
  const anchored = (await t.client.get('/log/checkpoint?anchored=true')).body.data.attributes;
  expect(anchored.anchor).toMatchObject({ transaction: expect.stringMatching(/^[0-9a-f]{64}$/) });
}, 90_000);
