import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../helpers/app';
import { JOBS_ENV, startTwoInstances, waitFor } from './jobs.helpers';

const RATES_QUERY = '{ currencyRates { currency unitsPerEur } }';
const usdOf = async (t: TestApp) => (await t.client.graphql(RATES_QUERY)).body.data.currencyRates.find((r: any) => r.currency === 'USD').unitsPerEur;
const countJobs = async (t: TestApp, state: string) =>
  Number((await t.orm.em.fork().getConnection().execute<{ n: string }[]>(`select count(*) as n from pgboss.job where name = 'rates-refresh' and state = ?`, [state]))[0].n);

it('refreshes the rates from RATES_URL every RATES_POLL_SECONDS through the queue, once per period across instances', async () => {
  let usd = '1.1';
  let fetches = 0;
  const server = createServer((_req, res) => {
    fetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ base: 'EUR', rates: { USD: usd } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rates.json`;
  const s = await startTwoInstances({ RATES_URL: url, RATES_POLL_SECONDS: '1' });
  try {
    expect(fetches).toBeGreaterThanOrEqual(2); // each instance once as it started
    expect(await usdOf(s.a)).toBe('1.1');
    usd = '1.25';
    await waitFor('the refreshed rate', async () => (await usdOf(s.b)) === '1.25');
    await waitFor('a few more periods', async () => (await countJobs(s.a, 'completed')) >= 3);
  } finally {
    await s.a.close();
    await s.b.close();
    server.close();
  }
  // Every fetch was one job run on one of the instances, but for one by each instance as it started
  // (on a loaded machine the first run may come before the second instance is up).
  const check = await startTestApp({}, s.db);
  try {
    expect(fetches - 2).toBe(await countJobs(check, 'completed'));
  } finally {
    await check.close();
    await s.db.drop();
  }
}, 30_000);

it('schedules no refresh without RATES_URL', async () => {
  const t = await startTestApp(JOBS_ENV);
  try {
    const queues = await t.orm.em.fork().getConnection().execute<{ name: string }[]>('select name from pgboss.queue order by name');
    expect(queues.map((q) => q.name)).toEqual(['bid-log-anchor', 'bid-log-checkpoint', 'cleanup', 'lot-ended', 'lot-finishing', 'lot-reserve-lapse', 'lot-unpaid-invoice', 'second-chance-expiry']);
  } finally {
    await t.close();
  }
});
