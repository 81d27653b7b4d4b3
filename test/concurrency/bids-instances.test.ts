import Decimal from 'decimal.js';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import type { Keypair } from '@stellar/stellar-sdk';
import type { CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { clusterWithAccounts, instanceFor, type Cluster } from './instances';
import { graphqlOutcome, restOutcome, tally, type Outcome } from './outcome';
import { note } from '../helpers/notes';

const INSTANCES = 3;
const ACCOUNTS = 12;
/** HARDENING_LONG=1 (.ci/run) sends more. */
const WAVES = process.env.HARDENING_LONG === '1' ? 20 : 6;
const MIN_STEP = '10';

let cluster: Cluster;
let platform: Keypair;
let accounts: CreatedAccount[];

beforeAll(async () => {
  ({ cluster, platform, accounts } = await clusterWithAccounts(INSTANCES, ACCOUNTS));
}, 120_000);
afterAll(() => cluster?.close());

async function auction(): Promise<string> {
  const lot = await createLot(cluster.instances[0], platform, { ...ENG_LOT, min_step: MIN_STEP, max_step: '1000' });
  const values = accounts.map((a) => `(${lot.id}, '${a.id}', ${ParticipantState.Pending})`).join(', ');
  await cluster.query(`insert into participants (lot_id, account_id, state) values ${values}`);
  return lot.id;
}

interface Sent {
  account: CreatedAccount;
  amount: string;
  outcome: Outcome;
}

/** One bid through instance `i mod n`; every third instance takes it over GraphQL, the others over REST. */
async function bid(lotId: string, i: number, account: CreatedAccount, amount: string): Promise<Sent> {
  const index = i % INSTANCES;
  const client = instanceFor(cluster, i).client.as(account.keypair);
  const outcome =
    index === INSTANCES - 1
      ? graphqlOutcome(await client.graphql('mutation($lot: ID!, $amount: String!) { placeBid(lotId: $lot, amount: $amount) { highestBid } }', { lot: lotId, amount }))
      : restOutcome(await client.post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } }));
  return { account, amount, outcome };
}

interface StoredBid {
  id: string;
  account_id: string;
  amount: string;
  seq: string;
}

/** The lot's bids in the order their transactions committed. */
const storedBids = (lotId: string) =>
  cluster.query<StoredBid>(
    `select b.id::text, b.account_id, b.amount::text, c.seq::text from bids b join test_commits c on c.kind = 'bid' and c.ref = b.id
      where b.lot_id = $1 order by c.seq`,
    [lotId],
  );

describe('bids on one lot through three instances', () => {
  it('keeps the stored bids strictly increasing by the min step in commit order, with none lost and none refused stored', async () => {
    const lotId = await auction();
    const sent: Sent[] = [];
    for (let w = 0; w < WAVES; w++) {
      // Two requests of a wave share each amount (from different accounts), so a round that did
      // not see another instance's round would accept a duplicate or a lower amount.
      const wave = Array.from({ length: ACCOUNTS * 3 }, (_, i) => bid(lotId, i, accounts[Math.floor(i / 3)], (1000 + w * 400 + (i % 18) * 10).toFixed(2)));
      sent.push(...(await Promise.all(wave)));
    }
    const outcomes = sent.map((s) => s.outcome);
    expect(outcomes.filter((o) => o.status >= 500)).toEqual([]);
    expect(outcomes.filter((o) => !(o.status === 200 || o.status === 204 || (o.status === 400 && ['bid_too_low', 'bid_step_invalid'].includes(o.code ?? ''))))).toEqual([]);

    const accepted = sent.filter((s) => s.outcome.status < 300);
    const rows = await storedBids(lotId);
    expect(accepted.length).toBeGreaterThan(WAVES);
    expect(rows.length).toBeGreaterThan(0);
    const key = (account: string, amount: string) => `${account} ${new Decimal(amount).toFixed(2)}`;
    expect(rows.map((r) => key(r.account_id, r.amount)).sort()).toEqual(accepted.map((s) => key(s.account.id, s.amount)).sort());

    expect(new Decimal(rows[0].amount).gte(ENG_LOT.start_price)).toBe(true);
    for (let i = 1; i < rows.length; i++) {
      const step = new Decimal(rows[i].amount).minus(rows[i - 1].amount);
      if (step.lt(MIN_STEP)) throw new Error(`bid ${rows[i].id} (${rows[i].amount}) committed after ${rows[i - 1].id} (${rows[i - 1].amount}): not ${MIN_STEP} above it`);
    }
    expect(new Set(rows.map((r) => new Decimal(r.amount).toFixed(2))).size).toBe(rows.length);

    const [lot] = await cluster.query<{ highest_bid: string }>('select highest_bid::text from lots where id = $1', [lotId]);
    const [max] = await cluster.query<{ max: string }>('select max(amount)::text from bids where lot_id = $1', [lotId]);
    expect(lot.highest_bid).toBe(max.max);
    expect(lot.highest_bid).toBe(rows[rows.length - 1].amount);

    // Each participant's current bid is its greatest stored bid, and only the last bidder holds the highest.
    const participants = await cluster.query<{ account_id: string; current_bid: string | null; own: string | null }>(
      `select p.account_id, p.current_bid::text, (select max(amount)::text from bids b where b.participant_id = p.id) as own
         from participants p where p.lot_id = $1`,
      [lotId],
    );
    expect(participants).toHaveLength(ACCOUNTS);
    for (const p of participants) expect({ account: p.account_id, current: p.current_bid }).toEqual({ account: p.account_id, current: p.own });
    expect(participants.filter((p) => p.current_bid === lot.highest_bid).map((p) => p.account_id)).toEqual([rows[rows.length - 1].account_id]);

    note(
      `bids across ${INSTANCES} instances: ${sent.length} sent in ${WAVES} waves, ${JSON.stringify(tally(outcomes))}; ` +
        `stored ${rows.length}, accepted but not stored 0, refused but stored 0, highest ${lot.highest_bid}`,
    );
  }, 120_000);
});
