import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fetchAndVerifyBidLog } from '../../src/cli/bid-log';
import { bearerFor } from '../blacklist/support';
import { createLot } from '../helpers/lots';
import { exec } from '../helpers/process';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';

// A bid sent with a bearer token has no signature: the bid log cites the SHA-256 of its method,
// target and body instead, which the bidder computes from what it sent (docs/bid-log.md).
const world = appWithPlatform({ accounts: 2 });
const PLACE = 'mutation ($lot: ID!, $amount: String, $max: String) { placeBid(lotId: $lot, amount: $amount, maxAmount: $max) { highestBid } }';

/** The digest as a bidder computes it, independently of the service's code. */
const digest = (method: string, target: string, body: Buffer) => createHash('sha256').update(`${method} ${target}\n`).update(body).digest('hex');
const entries = async (lotId: string) => (await world.t.client.get(`/lots/${lotId}/bid_log`)).body.data.attributes.entries as { seq: number; amount: string; by_proxy: boolean; request_digest: string | null }[];

describe('the request digest of a bid sent with a bearer token', () => {
  it('is cited by its entry, over REST and GraphQL, and by the raises of its max bid', async () => {
    const { t, platform } = world;
    const [a, b] = world.accounts;
    const lot = await createLot(t, platform, FREE_LOT);
    await join(t, a.keypair, lot.id);
    await join(t, b.keypair, lot.id);
    const [tokenA, tokenB] = [await bearerFor(t, a.id), await bearerFor(t, b.id)];

    const target = `/lots/${lot.id}/bid_requests`;
    const restBody = { data: { type: 'bid_requests', attributes: { lot_id: Number(lot.id), amount: '1000' } } };
    expect((await t.client.post(target, restBody, { bearer: tokenA })).status).toBe(204);
    const graphqlBody = { query: PLACE, variables: { lot: lot.id, max: '3000' } };
    const max = await t.client.request('POST', '/graphql', { body: graphqlBody, contentType: 'application/json', bearer: tokenB });
    expect(max.body.errors).toBeUndefined();
    const raise = { data: { type: 'bid_requests', attributes: { lot_id: Number(lot.id), amount: '1500' } } };
    expect((await t.client.post(target, raise, { bearer: tokenA })).status).toBe(204);

    const restDigest = digest('POST', target, Buffer.from(JSON.stringify(restBody)));
    const maxDigest = digest('POST', '/graphql', Buffer.from(JSON.stringify(graphqlBody)));
    const raiseDigest = digest('POST', target, Buffer.from(JSON.stringify(raise)));
    expect((await entries(lot.id)).map((e) => [e.amount, e.by_proxy, e.request_digest])).toEqual([
      ['1000.00', false, restDigest],
      ['1050.00', false, maxDigest],
      ['1500.00', false, raiseDigest],
      ['1550.00', true, maxDigest],
    ]);
    expect((await fetchAndVerifyBidLog(t.baseUrl, lot.id, { requestDigest: maxDigest })).proof).toEqual({ seq: 2, bidId: expect.any(String) });
  });

  it('is proved by npm run verify-bids from the request as sent (--request and --body)', async () => {
    const { t, platform } = world;
    const [a] = world.accounts;
    const lot = await createLot(t, platform, FREE_LOT);
    await join(t, a.keypair, lot.id);
    const target = `/lots/${lot.id}/bid_requests`;
    const sent = Buffer.from(JSON.stringify({ data: { type: 'bid_requests', attributes: { lot_id: Number(lot.id), amount: '1200' } } }));
    expect((await t.client.request('POST', target, { raw: sent, bearer: await bearerFor(t, a.id) })).status).toBe(204);
    const dir = mkdtempSync(path.join(tmpdir(), 'bearer-digest-'));
    const bodyFile = path.join(dir, 'bid.json');
    writeFileSync(bodyFile, sent);
    const env = { PATH: process.env.PATH, DATA_DIR: dir };

    const proved = await exec(process.execPath, ['dist/cli/verify-bids.js', t.baseUrl, lot.id, '--request', `POST ${target}`, '--body', bodyFile], env);
    expect(proved.stdout).toMatch(/^your request placed bid \d+, entry 1$/m);
    expect(proved.stdout).toMatch(/^OK$/m);
    expect(proved.code).toBe(0);

    // Another body (a bid never sent) is not in the chain.
    writeFileSync(bodyFile, sent.toString().replace('1200', '1300'));
    const other = await exec(process.execPath, ['dist/cli/verify-bids.js', t.baseUrl, lot.id, '--request', `POST ${target}`, '--body', bodyFile], env);
    expect(other.stdout).toMatch(/^FAIL no entry cites the request digest [0-9a-f]{64}$/m);
    expect(other.code).toBe(1);
  }, 60_000);
});
