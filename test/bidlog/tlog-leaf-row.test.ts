import { rowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';

// A leaf's row holds what the log needs of it. The salt that opens a bid's commitment is the chain
// entry's (bid_log), which the entries of a lot show; the copy a leaf's row kept was read by nothing.
const world = appWithPlatform({ accounts: 2 });

interface LeafRow {
  kind: string;
  salted: boolean;
}

it("writes no salt in a bid's leaf row, and the lot's entries still open each commitment", async () => {
  const { t, platform, accounts } = world;
  const lot = await createLot(t, platform, FREE_LOT);
  for (const a of accounts) await join(t, a.keypair, lot.id);
  // A max bid answered by proxy: a round of two bids, and a round of one.
  for (const [who, attributes] of [[accounts[0], { max_amount: '3000' }], [accounts[1], { amount: '1200' }]] as const) {
    const res = await t.client.as(who.keypair).post(`/lots/${lot.id}/bid_requests`, { data: { type: 'bid_requests', attributes } });
    expect(res.status).toBe(204);
  }
  const leaves = await rowsOf<LeafRow>(t.orm.em.fork(), sql`select kind, bidder_salt is not null as salted from tlog_leaves where lot_id = ${lot.id} order by seq`);
  expect(leaves).toEqual([1, 2, 3].map(() => ({ kind: 'bid', salted: false })));
  const entries = await t.client.as(platform).get(`/lots/${lot.id}/bid_log`);
  expect(entries.status).toBe(200);
  expect(entries.body.data.attributes.entries).toHaveLength(3);
  expect(entries.body.data.attributes.entries.every((e: { bidder_salt: string | null }) => typeof e.bidder_salt === 'string' && e.bidder_salt.length === 32)).toBe(true);
});
