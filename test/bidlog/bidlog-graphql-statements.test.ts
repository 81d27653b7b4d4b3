import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { createLot, ENG_LOT } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWithPlatform } from '../helpers/world';
import { closeLot } from '../trading/trading.helpers';

const world = appWithPlatform({ accounts: 2 });
const lotIds: string[] = [];

/** Each account takes part in each lot and bids `rounds` times on it, through the API (so that the chain is written). */
async function bidOnAll(rounds: number): Promise<void> {
  const em = world.t.orm.em.fork();
  for (const lotId of lotIds) for (const a of world.accounts) em.create(Participant, { lotId, accountId: a.id, state: ParticipantState.Pending });
  await em.flush();
  for (const lotId of lotIds) {
    for (let k = 0; k < rounds; k++) {
      for (const [i, a] of world.accounts.entries()) {
        const amount = String(1000 + (k * world.accounts.length + i) * 50);
        const res = await world.t.client.as(a.keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { lot_id: Number(lotId), amount } } });
        expect(res.status).toBe(204);
      }
    }
  }
}

beforeAll(async () => {
  for (let i = 0; i < 20; i++) lotIds.push((await createLot(world.t, world.platform, ENG_LOT)).id);
});

// Entries are costed at `last` (100 by default): 20 logs of 100 entries of 11 fields each is over
// GRAPHQL_MAX_COST, 20 of 50 within it.
const PAGE = `query($first: Int!) { lots(first: $first) { nodes { id
  bidLog { lotId signer entries(last: 50) { seq bidId amount createdAt byProxy requestDigest bidderCommitment previous hash bidderId bidderSalt } head { entries head lotState signature } }
} } }`;

async function page(first: number): Promise<{ statements: string[]; nodes: any[] }> {
  let nodes: any[] = [];
  const statements = await statementsSent(async () => {
    const res = await world.t.client.as(world.accounts[0].keypair).graphql(PAGE, { first });
    expect(res.body.errors).toBeUndefined();
    nodes = res.body.data.lots.nodes;
  });
  return { statements, nodes };
}

describe('Lot.bidLog on a GraphQL page of lots', () => {
  it('costs as many statements for 20 lots as for 5, and as many with two bidders bidding twice as with none', async () => {
    const empty = await page(20);
    expect(empty.nodes.every((n) => n.bidLog.entries.length === 0 && n.bidLog.head === null)).toBe(true);
    await bidOnAll(2);
    expect((await closeLot(world.t, world.platform, lotIds[0], 'finished')).status).toBe(200);
    const five = await page(5);
    const twenty = await page(20);
    expect(twenty.nodes).toHaveLength(20);
    expect(twenty.nodes.every((n) => n.bidLog.entries.length === 4)).toBe(true);
    expect(twenty.nodes.filter((n) => n.bidLog.head !== null).map((n) => n.id)).toEqual([lotIds[0]]);
    expect(twenty.statements).toHaveLength(five.statements.length);
    expect(empty.statements).toHaveLength(five.statements.length);
    const reading = (table: string) => twenty.statements.filter((s) => new RegExp(`\\bfrom "?${table}"?\\b`).test(s));
    expect(reading('bid_log')).toHaveLength(1);
    expect(reading('bid_log_heads')).toHaveLength(1);
  });

  it('answers each lot’s log as GET /lots/{id}/bid_log answers it to the same caller', async () => {
    const { nodes } = await page(20);
    for (const lotId of [lotIds[0], lotIds[7]]) {
      const rest = await world.t.client.as(world.accounts[0].keypair).get(`/lots/${lotId}/bid_log`);
      expect(rest.status).toBe(200);
      const { bidLog } = nodes.find((n) => n.id === lotId);
      const entries = rest.body.data.attributes.entries.map((e: any) => ({
        seq: e.seq, bidId: e.bid_id, amount: e.amount, createdAt: e.created_at, byProxy: e.by_proxy, requestDigest: e.request_digest,
        bidderCommitment: e.bidder_commitment, previous: e.previous, hash: e.hash, bidderId: e.bidder_id, bidderSalt: e.bidder_salt,
      }));
      expect(bidLog.entries).toEqual(entries);
      expect(bidLog.entries.map((e: any) => e.bidderId)).toEqual([world.accounts[0].id, null, world.accounts[0].id, null]);
      expect(bidLog.head?.signature ?? null).toBe(rest.body.data.attributes.head?.signature ?? null);
    }
  });
});
