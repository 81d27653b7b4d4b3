import type { Keypair } from '@stellar/stellar-sdk';
import { Money } from '../../src/core/money';
import { Bid } from '../../src/modules/bids/bids.entity';
import { Callback } from '../../src/modules/watchlist/watchlist.entity';
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
  const em = t.orm.em.fork();
  for (const lot of lots.slice(0, 10)) for (const u of users.slice(1)) em.create(Callback, { lotId: lot.id, accountId: u.id });
  await em.flush();
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

  it('read the lots with their organizers, platforms and bids in one statement, the participants in one more, and the rates only when a currency is asked', async () => {
    const { statements } = await page(20);
    const reading = (table: string) => statements.filter((s) => new RegExp(`\\bfrom "?${table}"?`).test(s));
    const [listing, ...others] = reading('lots');
    expect(others).toHaveLength(0);
    expect(listing).toMatch(/\bfrom bids b\b/);
    expect(listing).toMatch(/\bfrom accounts a where a\.id = l\.organizer_id\b/);
    expect(listing).toMatch(/\bfrom accounts a where a\.id = l\.publisher_id\b/);
    // No statement of its own for the bids or the accounts shown (the caller's authentication reads its own by id).
    expect(reading('bids').filter((s) => s !== listing)).toHaveLength(0);
    expect(statements.filter((s) => s !== listing && /\bfrom "?accounts"?/.test(s) && /\bin\b/i.test(s))).toHaveLength(0);
    expect(reading('participants')).toHaveLength(1);
    // Prices in their lots' own currencies need no rate.
    expect(reading('currency_rates')).toHaveLength(0);
  });

  it('read no organizer, platform or bid in the page statement when the query shows none', async () => {
    const statements = await statementsSent(async () => {
      const res = await t.client.as(platform).graphql('{ lots(first: 20) { nodes { id participants { id } } } }');
      expect(res.body.data.lots.nodes).toHaveLength(20);
    });
    const listing = statements.find((s) => /\bfrom "?lots"? l\b/.test(s)) as string;
    expect(listing).not.toMatch(/\bfrom (bids|accounts)\b/);
  });

  it('show what a lot read alone shows: the same organizer, platform, bids and callbacks, to its platform and to a bidder', async () => {
    const FIELDS = 'id organizer { id accountType email platformId } platform { id email } bids { id amount bidderId createdAt placedByProxy } callbacks { id lotId accountId createdAt }';
    for (const caller of [platform, users[1].keypair]) {
      const listed = (await t.client.as(caller).graphql(`{ lots(first: 20) { nodes { ${FIELDS} } } }`)).body.data.lots.nodes;
      expect(listed).toHaveLength(20);
      expect(listed.filter((n: any) => n.callbacks.length).length).toBeGreaterThan(0);
      for (const node of listed) {
        const alone = (await t.client.as(caller).graphql(`query($id: ID!) { lot(id: $id) { ${FIELDS} } }`, { id: node.id })).body.data.lot;
        expect(node).toEqual(alone);
      }
    }
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

describe('a REST page of lots with include=organizer,platform,bids (and the callbacks every page names)', () => {
  const INCLUDE = 'include=organizer,platform,bids';
  const byKey = (resources: any[]) => [...resources].sort((a, b) => `${a.type}/${a.id}`.localeCompare(`${b.type}/${b.id}`));

  it('reads them in the listing statement, and shows what each lot read alone shows, to its platform and to a bidder', async () => {
    for (const caller of [platform, users[1].keypair]) {
      let listed: any;
      const statements = await statementsSent(async () => {
        listed = await t.client.as(caller).get(`/lots?page[limit]=20&${INCLUDE}`);
      });
      expect(listed.status).toBe(200);
      expect(listed.body.data).toHaveLength(20);
      const listing = statements.find((s) => /\bfrom "?lots"? l\b/.test(s)) as string;
      expect(listing).toMatch(/\bfrom bids b\b/);
      expect(listing).toMatch(/\bfrom callbacks c\b/);
      expect(statements.filter((s) => s !== listing && /\bfrom "?(bids|accounts|callbacks)"?\b/.test(s) && /\b(in|any)\b/i.test(s))).toHaveLength(0);
      const included = byKey(listed.body.included);
      expect(included.filter((r) => r.type === 'bids').length).toBeGreaterThan(20);
      expect(listed.body.data.filter((l: any) => l.relationships.callbacks.data.length).length).toBeGreaterThan(0);

      const alone = [];
      for (const lot of listed.body.data) {
        const res = await t.client.as(caller).get(`/lots/${lot.id}?${INCLUDE}`);
        expect(res.body.data.relationships).toEqual(lot.relationships);
        alone.push(...res.body.included);
      }
      const unique = byKey([...new Map(alone.map((r) => [`${r.type}/${r.id}`, r])).values()]);
      expect(included).toEqual(unique);
    }
  });
});
