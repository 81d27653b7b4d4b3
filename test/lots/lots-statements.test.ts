import type { Keypair } from '@stellar/stellar-sdk';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { Callback, Star } from '../../src/modules/watchlist/watchlist.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { countStatements, statementsSent } from '../helpers/statements';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';

let t: TestApp;
let platform: Keypair;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  const users = [await createAccount(t, platform), await createAccount(t, platform)];
  const em = t.orm.em.fork();
  for (let i = 0; i < 24; i++) {
    const lot = await createLot(t, platform, ENG_LOT);
    for (const u of users) {
      em.create(Participant, { lotId: lot.id, accountId: u.id, state: ParticipantState.Pending });
      em.create(Callback, { lotId: lot.id, accountId: u.id });
      em.create(Star, { lotId: lot.id, accountId: u.id });
    }
  }
  await em.flush();
});
afterAll(() => t.close());

const GQL = `query($first: Int!) { lots(first: $first) { nodes { id organizer { id } participants { id } callbacks { id } stars { accountId } } } }`;

describe('the number of SQL statements of a page of lots', () => {
  it('does not grow with the page size over REST with includes', async () => {
    const rest = (size: number) => async () => {
      const res = await t.client.as(platform).get(`/lots?page[limit]=${size}&include=organizer,participants,callbacks,stars`);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(size);
      expect(res.body.included.filter((r: any) => r.type === 'participants')).toHaveLength(size * 2);
    };
    const small = await countStatements(t, rest(5));
    const large = await countStatements(t, rest(20));
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(10);
  });

  it('does not grow with the page size over GraphQL with field resolvers', async () => {
    const gql = (first: number) => async () => {
      const res = await t.client.as(platform).graphql(GQL, { first });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.lots.nodes).toHaveLength(first);
      expect(res.body.data.lots.nodes[0].participants).toHaveLength(2);
      expect(res.body.data.lots.nodes[0].organizer.id).toBe(platform.publicKey());
    };
    const small = await countStatements(t, gql(5));
    const large = await countStatements(t, gql(20));
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(10);
  });
});

describe('the statements of one lot', () => {
  const readsRates = (statements: string[]) => statements.filter((s) => /\bfrom "?currency_rates"?/.test(s)).length;

  it('read no rates when the prices show in its own currency, and the rates once to convert them', async () => {
    const lot = await createLot(t, platform, ENG_LOT);
    let own: any;
    let converted: any;
    const plain = await statementsSent(async () => {
      own = await t.client.get(`/lots/${lot.id}`);
    });
    const inGel = await statementsSent(async () => {
      converted = await t.client.get(`/lots/${lot.id}?currency=GEL`);
    });
    expect(own.status).toBe(200);
    expect(converted.status).toBe(200);
    expect(readsRates(plain)).toBe(0);
    expect(readsRates(inGel)).toBe(1);
    expect(Number(own.body.data.attributes.start_price)).toBeGreaterThan(0);
    expect(converted.body.data.attributes.start_price).not.toBe(own.body.data.attributes.start_price);
  });
});
