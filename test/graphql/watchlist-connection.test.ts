import type { Keypair } from '@stellar/stellar-sdk';
import { Star } from '../../src/modules/watchlist/watchlist.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWith } from '../helpers/world';
import { type ConnectionPage, expectWalksBothWays } from './connection.helpers';

// Query.watchlistConnection, the twin of the deprecated Query.watchlist: an account's starred
// lots newest first, to the account and its platform's staff only, paged both ways.

jest.setTimeout(120_000);

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const otherPlatform = await createPlatform(t);
  const admin = await createAccount(t, platform, { type: 'admin' });
  const otherAdmin = await createAccount(t, otherPlatform, { type: 'admin' });
  const user = await createAccount(t, platform);
  const neighbour = await createAccount(t, platform);
  const em = t.orm.em.fork();
  for (let i = 0; i < 5; i++) {
    const lot = await createLot(t, admin.keypair, ENG_LOT);
    em.create(Star, { lotId: String(lot.id), accountId: user.id });
    await em.flush();
  }
  return { admin, otherAdmin, user, neighbour };
});

type Page = ConnectionPage<{ lotId: string }>;

const ask = async (who: Keypair, args: string) =>
  (await world.t.client.as(who).graphql(`query($id: String!) { watchlistConnection(accountId: $id, ${args}) { edges { cursor node { lotId } } nodes { lotId } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`, { id: world.user.id })).body;

async function pageOf(who: Keypair, args: string): Promise<Page> {
  const body = await ask(who, args);
  expect(body.errors).toBeUndefined();
  return body.data.watchlistConnection;
}

const old = async (who: Keypair) => (await world.t.client.as(who).graphql('query($id: String!) { watchlist(accountId: $id) { lotId } }', { id: world.user.id })).body;
const lotsOf = (page: Page) => page.edges.map((e) => e.node.lotId);

describe('Query.watchlistConnection', () => {
  it('pages forwards and backwards over the lots the old list shows, newest first, counting them all', async () => {
    for (const who of [world.user.keypair, world.admin.keypair]) {
      const all = (await old(who)).data.watchlist.map((e: { lotId: string }) => e.lotId);
      expect(all).toHaveLength(5);
      await expectWalksBothWays((args) => pageOf(who, args), lotsOf, all, 2);
    }
  });

  it('refuses another platform’s staff and another user of the platform as the old list does', async () => {
    for (const who of [world.otherAdmin.keypair, world.neighbour.keypair]) {
      const refusal = (await old(who)).errors?.[0]?.extensions?.code;
      expect(refusal).toBeDefined();
      const body = await ask(who, 'first: 100');
      expect(body.data).toBeNull();
      expect(body.errors?.[0]?.extensions?.code).toBe(refusal);
    }
  });

  it('refuses a cursor of another account’s watchlist and a made-up one, naming the argument', async () => {
    const forged = Buffer.from('["Account:x.watchlist","1"]').toString('base64url');
    const other = (await world.t.client.as(world.admin.keypair).graphql('{ blacklistConnection(first: 1) { pageInfo { endCursor } } }')).body;
    for (const cursor of [forged, '1', other.data?.blacklistConnection?.pageInfo?.endCursor ?? 'x'.repeat(300)]) {
      for (const arg of ['after', 'before']) {
        const body = await ask(world.user.keypair, `first: 1, ${arg}: "${cursor}"`);
        expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_cursor', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
      }
    }
  });

  it('runs the same statements for a page of one lot and of four', async () => {
    const statementsFor = async (first: number) => {
      let page: Page | undefined;
      const sent = await statementsSent(async () => {
        page = await pageOf(world.user.keypair, `first: ${first}`);
      });
      expect(page?.edges).toHaveLength(first);
      return sent.length;
    };
    await statementsFor(1);
    expect(await statementsFor(4)).toBe(await statementsFor(1));
  });
});
