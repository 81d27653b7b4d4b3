import type { Keypair } from '@stellar/stellar-sdk';
import { Money } from '../../src/core/money';
import { Bid } from '../../src/modules/bids/bids.entity';
import type { Lot } from '../../src/modules/lots/lots.entity';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { statementsSent } from '../helpers/statements';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';

let t: TestApp;
let platform: Keypair;
let users: CreatedAccount[];
const lots: Lot[] = [];

/** Each user takes part in each lot and bids `bids` times on it. */
async function bidOnAll(bidders: CreatedAccount[], bids: number): Promise<void> {
  const em = t.orm.em.fork();
  for (const lot of lots) {
    for (const [i, u] of bidders.entries()) {
      const participant = em.create(Participant, { lotId: lot.id, accountId: u.id, state: ParticipantState.Pending });
      await em.flush();
      for (let k = 0; k < bids; k++) {
        em.create(Bid, { lotId: lot.id, participantId: participant.id, accountId: u.id, amount: new Money(1000 + (k * bidders.length + i) * 50) });
      }
    }
  }
  await em.flush();
}

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  users = [await createAccount(t, platform), await createAccount(t, platform), await createAccount(t, platform)];
  for (let i = 0; i < 20; i++) lots.push(await createLot(t, platform, ENG_LOT));
  await bidOnAll(users.slice(0, 1), 1);
});
afterAll(() => t.close());

const PAGE = `query($first: Int!, $filter: LotFilter) { lots(first: $first, filter: $filter) { nodes {
  id highestBid startPrice organizer { id accountType } platform { id accountType }
  participants { id accountId } bids { id amount bidderId }
} } }`;

async function page(first: number, filter?: object): Promise<{ statements: string[]; nodes: any[] }> {
  let nodes: any[] = [];
  const statements = await statementsSent(async () => {
    const res = await t.client.as(platform).graphql(PAGE, { first, filter });
    expect(res.body.errors).toBeUndefined();
    nodes = res.body.data.lots.nodes;
  });
  return { statements, nodes };
}

describe('the statements of a GraphQL page of lots with bids, participants, organizer and platform', () => {
  it('are as many for 20 lots as for 5, and as many with three bidders bidding twice as with one bidding once', async () => {
    const five = await page(5);
    const twenty = await page(20);
    expect(five.nodes).toHaveLength(5);
    expect(twenty.nodes).toHaveLength(20);
    expect(twenty.nodes.every((n) => n.bids.length === 1 && n.participants.length === 1)).toBe(true);
    expect(twenty.nodes[0].organizer.id).toBe(platform.publicKey());
    expect(twenty.nodes[0].platform.id).toBe(platform.publicKey());

    await bidOnAll(users.slice(1), 2);
    const busier = await page(20);
    expect(busier.nodes.every((n) => n.bids.length === 5 && n.participants.length === 3)).toBe(true);

    expect(twenty.statements).toHaveLength(five.statements.length);
    expect(busier.statements).toHaveLength(five.statements.length);
  });

  it('read the lots, the accounts, the participants and the bids once each, and the rates only when a currency is asked', async () => {
    const { statements } = await page(20);
    const reading = (table: string) => statements.filter((s) => new RegExp(`\\bfrom "?${table}"?`).test(s));
    expect(reading('lots')).toHaveLength(1);
    // Prices in their lots' own currencies need no rate.
    expect(reading('currency_rates')).toHaveLength(0);
    expect(reading('participants')).toHaveLength(1);
    expect(reading('bids')).toHaveLength(1);
    // The organizer and the platform in one query, beside the caller's own authentication.
    expect(statements.filter((s) => /\bfrom "?accounts"?/.test(s) && /\bin\b/i.test(s))).toHaveLength(1);
  });

  it('read the rates once beside the lots when the prices are asked in a currency, and show them converted', async () => {
    const own = await page(5);
    const { statements, nodes } = await page(5, { currency: 'GEL' });
    expect(statements.filter((s) => /\bfrom "?currency_rates"?/.test(s))).toHaveLength(1);
    expect(statements).toHaveLength(own.statements.length + 1);
    expect(nodes.map((n) => n.id)).toEqual(own.nodes.map((n) => n.id));
    expect(Number(own.nodes[0].startPrice)).toBeGreaterThan(0);
    expect(nodes[0].startPrice).not.toBe(own.nodes[0].startPrice);
  });
});
