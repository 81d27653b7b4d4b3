import type { Keypair } from '@stellar/stellar-sdk';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import type { CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { FREE_LOT } from '../trading/trading.helpers';
import { clusterWithAccounts, instanceFor, type Cluster } from './instances';
import { graphqlOutcome, restOutcome, tally, type Outcome } from './outcome';
import { note } from '../helpers/notes';

const INSTANCES = 3;
const ACCOUNTS = 8;
/** Each race runs on several lots: a missing lock shows on some of them, not necessarily on one. HARDENING_LONG=1 (.ci/run) runs more. */
const LOTS = process.env.HARDENING_LONG === '1' ? 12 : 3;

let cluster: Cluster;
let platform: Keypair;
let accounts: CreatedAccount[];

beforeAll(async () => {
  ({ cluster, platform, accounts } = await clusterWithAccounts(INSTANCES, ACCOUNTS));
}, 120_000);
afterAll(() => cluster?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ok = (o: Outcome) => o.status === 200 || o.status === 204;

/** A lot whose accounts all participate, pending (as with no deposit to pay); answers the participants' ids by account. */
async function lotWithAll(attributes: Record<string, unknown>): Promise<{ lotId: string; participants: Map<string, string> }> {
  const lot = await createLot(cluster.instances[0], platform, attributes);
  const rows = await cluster.query<{ id: string; account_id: string }>(
    `insert into participants (lot_id, account_id, state) select $1, unnest($2::text[]), ${ParticipantState.Pending} returning id::text, account_id`,
    [lot.id, accounts.map((a) => a.id)],
  );
  return { lotId: lot.id, participants: new Map(accounts.map((a) => [a.id, (rows.find((r) => r.account_id === a.id) as { id: string }).id])) };
}

/** Operation `i` of a race goes to instance `i mod n`, over GraphQL on odd `i` and REST on even. */
function viaEdges(i: number, rest: (c: ReturnType<typeof client>) => Promise<Outcome>, graphql: (c: ReturnType<typeof client>) => Promise<Outcome>) {
  const c = client(i);
  return i % 2 ? graphql(c) : rest(c);
}
const client = (i: number) => instanceFor(cluster, i).client;

const closeLot = (i: number, lotId: string) =>
  viaEdges(
    i,
    async (c) => restOutcome(await c.as(platform).post('/lots/closed', { data: { type: 'lots', id: lotId, attributes: { state: 'finished' } } })),
    async (c) => graphqlOutcome(await c.as(platform).graphql('mutation($lot: ID!) { closeLot(lotId: $lot, state: "finished") { id } }', { lot: lotId })),
  );

const chooseWinner = (i: number, lotId: string, participantId: string) =>
  viaEdges(
    i,
    async (c) => restOutcome(await c.as(platform).post(`/v2/lots/${lotId}/winners`, { data: { type: 'participants', id: participantId, attributes: { buy_now: false } } })),
    async (c) => graphqlOutcome(await c.as(platform).graphql('mutation($lot: ID!, $p: ID!) { chooseWinner(lotId: $lot, participantId: $p) { id } }', { lot: lotId, p: participantId })),
  );

const buyNow = (i: number, lotId: string, who: CreatedAccount) =>
  viaEdges(
    i,
    async (c) => restOutcome(await c.as(who.keypair).patch(`/v2/lots/${lotId}/participants/${who.id}`)),
    async (c) => graphqlOutcome(await c.as(who.keypair).graphql('mutation($lot: ID!, $a: String!) { requestBuyNow(lotId: $lot, accountId: $a) { id } }', { lot: lotId, a: who.id })),
  );

const bid = async (i: number, lotId: string, who: CreatedAccount, amount: string) =>
  restOutcome(await client(i).as(who.keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } }));

/** The commit-log rows of lot changes (state or winner), in commit order. */
const lotCommits = (lotId: string) =>
  cluster.query<{ seq: string; lot_state: number; winner_id: string | null }>(
    `select seq::text, lot_state, winner_id from test_commits where kind = 'lot' and ref = $1 order by seq`,
    [lotId],
  );

describe('a close racing bids on three instances', () => {
  it('stores no bid whose transaction committed after the close committed, and loses none it accepted', async () => {
    const summary: string[] = [];
    for (let l = 0; l < LOTS; l++) {
      const { lotId } = await lotWithAll({ ...FREE_LOT, min_step: '10', max_step: '5000' });
      const bids = Array.from({ length: 60 }, async (_, i) => {
        await sleep(i * 3);
        const amount = (1000 + i * 10).toFixed(2);
        return { amount, who: accounts[i % ACCOUNTS], outcome: await bid(i, lotId, accounts[i % ACCOUNTS], amount) };
      });
      const close = sleep(40 + l * 10).then(() => closeLot(l, lotId));
      const [closed, ...sent] = await Promise.all([close, ...bids]);
      expect(closed).toEqual({ status: 200, code: undefined });
      const outcomes = sent.map((s) => s.outcome);
      expect(outcomes.filter((o) => !(ok(o) || (o.status === 400 && ['lot_not_active', 'bid_too_low'].includes(o.code ?? ''))))).toEqual([]);

      const commits = await lotCommits(lotId);
      expect(commits.map((c) => c.lot_state)).toEqual([3]);
      const late = await cluster.query<{ id: string; amount: string; seq: string }>(
        `select b.id::text, b.amount::text, c.seq::text from bids b join test_commits c on c.kind = 'bid' and c.ref = b.id
          where b.lot_id = $1 and c.seq > $2`,
        [lotId, commits[0].seq],
      );
      expect(late).toEqual([]);
      const stored = await cluster.query<{ account_id: string; amount: string }>('select account_id, amount::text from bids where lot_id = $1 order by id', [lotId]);
      const accepted = sent.filter((s) => ok(s.outcome)).map((s) => `${s.who.id} ${s.amount}`);
      expect(stored.map((r) => `${r.account_id} ${r.amount}`).sort()).toEqual(accepted.sort());
      summary.push(`lot ${l}: ${JSON.stringify(tally(outcomes))}`);
    }
    const refused = summary.filter((s) => s.includes('lot_not_active')).length;
    // Each race must really have been one: some lots saw bids accepted before and refused after the close.
    expect(refused).toBeGreaterThan(0);
    note(`close racing 60 bids on ${LOTS} lots through ${INSTANCES} instances; no bid committed after its close:\n${summary.join('\n')}`);
  }, 120_000);
});

describe('winner choice on three instances', () => {
  it('gives each lot exactly one winner out of simultaneous choices of every participant', async () => {
    const seen: Outcome[] = [];
    for (let l = 0; l < LOTS; l++) {
      const { lotId, participants } = await lotWithAll(FREE_LOT);
      const ids = [...participants.values()];
      const outcomes = await Promise.all(ids.map((id, i) => chooseWinner(i + l, lotId, id)));
      seen.push(...outcomes);
      expect(outcomes.filter(ok)).toHaveLength(1);
      expect(outcomes.filter((o) => !ok(o)).map((o) => `${o.status} ${o.code}`)).toEqual(Array(ids.length - 1).fill('400 lot_has_winner'));
      const rows = await cluster.query<{ id: string; account_id: string; state: number }>('select id::text, account_id, state from participants where lot_id = $1', [lotId]);
      const winners = rows.filter((p) => p.state === ParticipantState.Winner);
      expect(winners).toHaveLength(1);
      expect(rows.filter((p) => p.state === ParticipantState.Lost)).toHaveLength(ids.length - 1);
      expect((await lotCommits(lotId)).map((c) => c.winner_id)).toEqual([winners[0].account_id]);
    }
    note(`winner choice: ${ACCOUNTS} simultaneous choices on each of ${LOTS} lots through ${INSTANCES} instances: ${JSON.stringify(tally(seen))}; one winner per lot`);
  }, 120_000);

  it('lets a close and a winner choice sent together on two instances never both succeed', async () => {
    const seen: string[] = [];
    for (let l = 0; l < LOTS; l++) {
      const { lotId, participants } = await lotWithAll(FREE_LOT);
      const [choice, close] = await Promise.all([chooseWinner(2 * l, lotId, [...participants.values()][l % ACCOUNTS]), closeLot(2 * l + 1, lotId)]);
      expect([choice, close].filter(ok)).toHaveLength(1);
      const [lot] = await cluster.query<{ lot_state: number; winner_id: string | null }>('select lot_state, winner_id from lots where id = $1', [lotId]);
      const rows = await cluster.query<{ state: number }>('select state from participants where lot_id = $1', [lotId]);
      const winners = rows.filter((p) => p.state === ParticipantState.Winner).length;
      if (ok(choice)) {
        expect(close).toEqual({ status: 400, code: 'lot_has_winner' });
        expect({ state: lot.lot_state, winner: lot.winner_id !== null, winners }).toEqual({ state: 1, winner: true, winners: 1 });
      } else {
        expect(choice).toEqual({ status: 400, code: 'lot_closed' });
        expect({ state: lot.lot_state, winner: lot.winner_id, winners }).toEqual({ state: 3, winner: null, winners: 0 });
      }
      seen.push(ok(choice) ? 'choice won' : 'close won');
    }
    note(`close against winner choice on ${LOTS} lots: ${seen.join(', ')}; never both`);
  }, 120_000);
});

describe('buy now on three instances', () => {
  it('takes exactly one buy-now request per lot out of every participant asking at once', async () => {
    const seen: Outcome[] = [];
    for (let l = 0; l < LOTS; l++) {
      const { lotId } = await lotWithAll({ ...ENG_LOT, deposit: '0' });
      const outcomes = await Promise.all(accounts.map((a, i) => buyNow(i + l, lotId, a)));
      seen.push(...outcomes);
      expect(outcomes.filter(ok)).toHaveLength(1);
      expect(outcomes.filter((o) => !ok(o)).map((o) => `${o.status} ${o.code}`)).toEqual(Array(ACCOUNTS - 1).fill('409 buy_now_pending'));
      const [{ count }] = await cluster.query<{ count: string }>('select count(*)::text from participants where lot_id = $1 and requested_buy_now', [lotId]);
      expect(count).toBe('1');
    }
    note(`buy now: ${ACCOUNTS} simultaneous requests on each of ${LOTS} lots through ${INSTANCES} instances: ${JSON.stringify(tally(seen))}; one per lot`);
  }, 120_000);
});
