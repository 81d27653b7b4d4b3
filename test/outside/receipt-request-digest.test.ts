import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bearerFor } from '../blacklist/support';
import { createLot } from '../helpers/lots';
import { exec } from '../helpers/process';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';

/**
 * "A bidder that bid with a JWT verifies from its receipt alone" (docs/bid-log.md). The receipt's
 * signature binds it to its leaves, not to its bidder: an operator that answers bidder A with the
 * receipt of bidder B's request and then drops A's bid passed `verify-bids --receipt`, and the
 * `--request`/`--body` (or `--digest`) A gave to prove its own bid were dropped unchecked without
 * a LOT: the command printed OK.
 */
const world = appWithPlatform({ accounts: 2 });

interface Sent {
  receiptFile: string;
  bodyFile: string;
  target: string;
  signer: string;
}

async function bid(dir: string, name: string, lotId: string, accountId: string, amount: string): Promise<Sent> {
  const target = `/lots/${lotId}/bid_requests`;
  const body = Buffer.from(JSON.stringify({ data: { type: 'bid_requests', attributes: { lot_id: Number(lotId), amount } } }));
  const res = await world.t.client.request('POST', target, { raw: body, bearer: await bearerFor(world.t, accountId) });
  expect(res.status).toBe(204);
  const header = res.headers['bid-receipt'] as string;
  const receiptFile = path.join(dir, `${name}.receipt`);
  const bodyFile = path.join(dir, `${name}.json`);
  writeFileSync(receiptFile, header);
  writeFileSync(bodyFile, body);
  return { receiptFile, bodyFile, target, signer: JSON.parse(Buffer.from(header, 'base64').toString('utf8')).signer };
}

const verify = (dir: string, args: string[]) => exec(process.execPath, ['dist/cli/verify-bids.js', world.t.baseUrl, ...args, '--state', path.join(dir, 'state.json')], { PATH: process.env.PATH, DATA_DIR: dir });

describe('verify-bids --receipt with the request it answered', () => {
  let dir: string;
  let a: Sent;
  let b: Sent;

  beforeAll(async () => {
    const [alice, bob] = world.accounts;
    const lot = await createLot(world.t, world.platform, FREE_LOT);
    await join(world.t, alice.keypair, lot.id);
    await join(world.t, bob.keypair, lot.id);
    dir = mkdtempSync(path.join(tmpdir(), 'receipt-digest-'));
    a = await bid(dir, 'a', lot.id, alice.id, '1000');
    b = await bid(dir, 'b', lot.id, bob.id, '1500');
    await world.t.app.services.transparencyLog.checkpointNow({ em: world.t.orm.em.fork() });
  });

  it("fails another request's receipt, which the log key signed as well", async () => {
    const run = await verify(dir, ['--receipt', b.receiptFile, '--log-key', b.signer, '--request', `POST ${a.target}`, '--body', a.bodyFile]);
    expect(run.stdout).toMatch(/^FAIL none of the receipt's bids was placed by the request with the digest [0-9a-f]{64}/m);
    expect(run.stdout).toMatch(/^NOT VERIFIED$/m);
    expect(run.code).toBe(1);
  });

  it('proves the request its own receipt answered', async () => {
    const run = await verify(dir, ['--receipt', a.receiptFile, '--log-key', a.signer, '--request', `POST ${a.target}`, '--body', a.bodyFile]);
    expect(run.stdout).toMatch(/^your request placed the receipt's leaf \d+$/m);
    expect(run.stdout).toMatch(/^OK$/m);
    expect(run.code).toBe(0);
  });

  it('refuses as a usage error a digest given with neither a LOT nor a receipt, rather than drop it', async () => {
    const run = await verify(dir, ['--anchor', '--digest', 'ab'.repeat(32)]);
    expect(run.stderr).toMatch(/^--digest and --request go with a LOT or a --receipt FILE/m);
    expect(run.code).toBe(2);
  });
});
