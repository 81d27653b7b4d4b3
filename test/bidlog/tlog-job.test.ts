import { signHeaders } from '../helpers/client';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { JOBS_ENV } from '../jobs/jobs.helpers';
import { FREE_LOT, join } from '../trading/trading.helpers';

// While bids arrive, the checkpoint job signs a checkpoint every CHECKPOINT_SECONDS: a receipt's
// promise is kept without anybody asking.
const world = appWithPlatform({ accounts: 1, env: { ...JOBS_ENV, CHECKPOINT_SECONDS: '0.5' } });

it('checkpoints a bid within seconds, by the job alone', async () => {
  const { t, platform } = world;
  const [a] = world.accounts;
  const lot = await createLot(t, platform, FREE_LOT);
  await join(t, a.keypair, lot.id);
  const target = `/lots/${lot.id}/bid_requests`;
  const body = { data: { type: 'bid_requests', attributes: { lot_id: Number(lot.id), amount: '1000' } } };
  const headers: Record<string, string> = { 'content-type': 'application/vnd.api+json' };
  signHeaders('POST', target, headers, Buffer.from(JSON.stringify(body)), { keypair: a.keypair });
  const res = await t.client.request('POST', target, { body, headers });
  expect(res.status).toBe(204);
  const index = JSON.parse(Buffer.from(res.headers['bid-receipt'] as string, 'base64').toString()).entries[0].leaf_index as number;
  const deadline = Date.now() + 15_000;
  let size = 0;
  while (Date.now() < deadline) {
    const [row] = await t.orm.em.fork().getConnection().execute('select coalesce(max(size), 0)::int as size from tlog_checkpoints');
    size = row.size;
    if (size > index) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(size).toBeGreaterThan(index);
}, 30_000);
