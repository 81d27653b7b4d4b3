import type { Keypair } from '@stellar/stellar-sdk';
import { startCluster, instanceFor, type Cluster } from '../concurrency/instances';
import { graphqlOutcome, restOutcome, tally, type Outcome } from '../concurrency/outcome';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { buyingPower, lotWithPaidBidders } from './buying-power.helpers';
import { setRules } from './rules.helpers';

// Two instances on one database, as behind a balancer: one account's bids on several lots meet
// in different processes, and only the database can keep them within the account's buying power.
const LOTS = 6;
const WAVES = 3;
let cluster: Cluster;
let platform: Keypair;

beforeAll(async () => {
  cluster = await startCluster(2);
  platform = await createPlatform(cluster.instances[0]);
  // 5 × (6 deposits of 100 EUR): 3,000 EUR, three lots at their start price of 1,000.
  await setRules(cluster.instances[0], platform, { buying_power_multiple: '5' });
}, 120_000);
afterAll(() => cluster?.close());

/** A bid through instance `i mod 2`, every third one over GraphQL. */
async function send(i: number, who: Keypair, lotId: string, attributes: { amount?: string; max_amount?: string }): Promise<Outcome> {
  const client = instanceFor(cluster, i).client.as(who);
  if (i % 3 === 2) {
    const res = await client.graphql('mutation ($lot: ID!, $amount: String, $max: String) { placeBid(lotId: $lot, amount: $amount, maxAmount: $max) { highestBid } }', { lot: lotId, amount: attributes.amount, max: attributes.max_amount });
    return graphqlOutcome(res);
  }
  return restOutcome(await client.post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes } }));
}

/** What the account leads on the platform's open lots, in EUR, read straight from the database. */
async function held(accountId: string): Promise<number> {
  const [row] = await cluster.query<{ held: string }>(
    `select coalesce(sum(l.highest_bid / l.units_per_eur), 0)::text as held from participants p join lots l on l.id = p.lot_id
      where p.account_id = $1 and l.publisher_id = $2 and p.current_bid = l.highest_bid`,
    [accountId, platform.publicKey()],
  );
  return Number(row.held);
}

/** A fresh bidder with a paid deposit on each of LOTS new lots (plus `others` on them too). */
async function lotsFor(others: CreatedAccount[] = []): Promise<{ bidder: CreatedAccount; lots: string[] }> {
  const t = cluster.instances[0];
  const bidder = await createAccount(t, platform);
  const lots: string[] = [];
  for (let i = 0; i < LOTS; i++) lots.push(await lotWithPaidBidders(t, platform, [bidder.keypair, ...others.map((o) => o.keypair)]));
  return { bidder, lots };
}

describe('buying power under concurrent bids on two instances', () => {
  it('accepts exactly as many concurrent first bids of one account on different lots as its power holds', async () => {
    for (let wave = 0; wave < WAVES; wave++) {
      const { bidder, lots } = await lotsFor();
      // Bids and max bids alike, each placing 1,000 on its lot.
      const outcomes = await Promise.all(lots.map((lot, i) => send(i + wave, bidder.keypair, lot, i % 2 ? { max_amount: '1000' } : { amount: '1000' })));
      expect(outcomes.filter((o) => o.code === undefined)).toHaveLength(3);
      expect(tally(outcomes.filter((o) => o.code !== undefined))).toEqual({ '400 buying_power_exceeded': 3 });
      expect(await held(bidder.id)).toBe(3000);
      expect((await buyingPower(cluster.instances[1], bidder.keypair, bidder.id)).body.data.attributes).toMatchObject({ limit: '3000.00', in_use: '3000.00', left: '0.00' });
    }
  });

  it('never over-commits when proxy raises on some lots race the same account\'s bids on others', async () => {
    const rival = await createAccount(cluster.instances[0], platform);
    for (let wave = 0; wave < WAVES; wave++) {
      const { bidder, lots } = await lotsFor([rival]);
      // Max bids of 1,500 on two lots hold 2,000 and leave 1,000.
      for (const lot of lots.slice(0, 2)) expect((await send(0, bidder.keypair, lot, { max_amount: '1500' })).code).toBeUndefined();
      // Each rival bid draws a raise to 1,100 (+100 each), while the bidder opens two more lots at 1,000 (+1,000 each).
      const outcomes = await Promise.all([
        send(wave, rival.keypair, lots[0], { amount: '1050' }),
        send(wave + 1, bidder.keypair, lots[2], { amount: '1000' }),
        send(wave + 2, rival.keypair, lots[1], { amount: '1050' }),
        send(wave + 3, bidder.keypair, lots[3], { amount: '1000' }),
      ]);
      // The rival's bids are all taken (its own power holds them); only the bidder's may be refused.
      expect([outcomes[0], outcomes[2]].map((o) => o.code)).toEqual([undefined, undefined]);
      expect([outcomes[1], outcomes[3]].filter((o) => o.code !== undefined).map((o) => o.code)).toEqual([outcomes[1], outcomes[3]].filter((o) => o.code !== undefined).map(() => 'buying_power_exceeded'));
      // All four together would hold 3,200; whichever order the locks gave them, what stands fits.
      const total = await held(bidder.id);
      expect(total).toBeLessThanOrEqual(3000);
      const shown = (await buyingPower(cluster.instances[wave % 2], bidder.keypair, bidder.id)).body.data.attributes;
      expect(Number(shown.in_use)).toBe(total);
    }
  });
});
