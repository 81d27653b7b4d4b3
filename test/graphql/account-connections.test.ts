import type { Keypair } from '@stellar/stellar-sdk';
import { Money } from '../../src/core/money';
import { Bid } from '../../src/modules/bids/bids.entity';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import type { CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWith, twoPlatforms } from '../helpers/world';
import { type ConnectionPage, expectWalksBothWays } from './connection.helpers';

// The connection twins of an account's bids and lots: each pages both ways over what the
// deprecated list shows the caller, newest first, counts only that, refuses a cursor it did not
// make, and reads the lists of a whole page of accounts in one statement.

jest.setTimeout(120_000);

const world = appWith(async (t) => {
  const { platform, admin, otherAdmin, users } = await twoPlatforms(t, 10);
  const lot = String((await createLot(t, admin.keypair, ENG_LOT)).id);
  for (let i = 0; i < 3; i++) await createLot(t, admin.keypair, { ...ENG_LOT, reserve_price: '2000' });
  const foreignLot = String((await createLot(t, otherAdmin.keypair, ENG_LOT)).id);
  // The first user bids five times on the admin's lot, and twice on the other platform's.
  const em = t.orm.em.fork();
  let amount = 1000;
  for (const [lotId, times] of [[lot, 5], [foreignLot, 2]] as const) {
    const participant = em.create(Participant, { lotId, accountId: users[0].id, state: ParticipantState.Pending });
    await em.flush();
    for (let i = 0; i < times; i++) {
      em.create(Bid, { lotId, participantId: participant.id, accountId: users[0].id, amount: new Money(String((amount += 50))) });
      await em.flush();
    }
  }
  for (const u of users.slice(1)) {
    const participant = em.create(Participant, { lotId: lot, accountId: u.id, state: ParticipantState.Pending });
    await em.flush();
    em.create(Bid, { lotId: lot, participantId: participant.id, accountId: u.id, amount: new Money(String((amount += 50))) });
    await em.flush();
  }
  return { platform, admin, otherAdmin, users };
});

/** A twin of a deprecated list of Account, the field that keys its nodes, and whose list the tests page. */
const TWINS: [string, string, string, () => CreatedAccount][] = [
  ['bidsConnection', 'bids', 'id', () => world.users[0]],
  ['lotsConnection', 'lots', 'id', () => world.admin],
];

async function accountOf(who: Keypair | null, id: string, selection: string): Promise<any> {
  const client = who ? world.t.client.as(who) : world.t.client;
  const res = await client.graphql(`query($id: String!) { account(id: $id) { ${selection} } }`, { id });
  return res.body;
}

async function pageOf(who: Keypair | null, id: string, field: string, args: string): Promise<ConnectionPage> {
  const body = await accountOf(who, id, `${field}(${args}) { edges { cursor node { id } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount }`);
  expect(body.errors).toBeUndefined();
  return body.data.account[field];
}

/** The deprecated list's ids, newest first as it answers them and as its twin pages them. */
async function oldOf(who: Keypair | null, id: string, list: string): Promise<string[]> {
  const body = await accountOf(who, id, `${list} { id }`);
  expect(body.errors).toBeUndefined();
  return body.data.account[list].map((row: { id: string }) => row.id);
}

const idsOf = (page: ConnectionPage) => page.edges.map((e) => String(e.node.id));

describe.each(TWINS)('Account.%s', (field, list, _key, owner) => {
  it('pages forwards and backwards over what the old list shows the platform’s staff, newest first, counting it all', async () => {
    const all = await oldOf(world.admin.keypair, owner().id, list);
    expect(all.length).toBeGreaterThanOrEqual(4);
    await expectWalksBothWays((args) => pageOf(world.admin.keypair, owner().id, field, args), idsOf, all, 2, { countBackwards: true });
  });

  it('shows each caller what the old list shows it: the account itself, another user, another platform’s staff, anonymous', async () => {
    const callers = [world.users[0].keypair, world.users[1].keypair, world.otherAdmin.keypair, null];
    for (const who of callers) {
      const seen = await oldOf(who, owner().id, list);
      const page = await pageOf(who, owner().id, field, 'first: 100');
      expect(idsOf(page)).toEqual(seen);
      expect(page.totalCount).toBe(seen.length);
    }
  });

  it('refuses another account’s cursor, another list’s and a made-up one, naming the argument', async () => {
    const [otherField, , , otherOwner] = TWINS.find(([f]) => f !== field)!;
    const ofOtherList = (await pageOf(world.admin.keypair, otherOwner().id, otherField, 'first: 1')).edges[0].cursor;
    const ofOtherAccount = (await pageOf(world.admin.keypair, field === 'bidsConnection' ? world.users[1].id : world.otherAdmin.id, field, 'first: 1')).edges[0]?.cursor;
    expect(ofOtherAccount).toBeDefined();
    const cursors = [ofOtherList, ofOtherAccount, Buffer.from('c1\u0000Account.bids\u00001').toString('base64url'), '1'];
    for (const cursor of cursors) {
      for (const arg of ['after', 'before']) {
        const body = await accountOf(world.admin.keypair, owner().id, `${field}(${arg === 'after' ? 'first' : 'last'}: 1, ${arg}: "${cursor}") { totalCount }`);
        expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_cursor', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
      }
    }
  });

  it('refuses first and last outside 1 to 100, naming the argument', async () => {
    for (const [arg, size] of [['first', 0], ['first', 101], ['last', 0], ['last', 101]] as const) {
      const body = await accountOf(world.admin.keypair, owner().id, `${field}(${arg}: ${size}) { totalCount }`);
      expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_page', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
    }
  });

  it('reads the lists of a page of ten accounts in the one statement it reads one account’s', async () => {
    const statementsFor = async (accounts: number) => {
      let body: any;
      const sent = await statementsSent(async () => {
        const query = `query($p: String!) { accountsConnection(first: ${accounts}, platformId: $p, accountType: "user") { nodes { id ${field}(first: 2) { totalCount nodes { id } } } } }`;
        body = (await world.t.client.as(world.admin.keypair).graphql(query, { p: world.platform.publicKey() })).body;
      });
      expect(body.errors).toBeUndefined();
      expect(body.data.accountsConnection.nodes).toHaveLength(accounts);
      return sent.length;
    };
    await statementsFor(1);
    expect(await statementsFor(10)).toBe(await statementsFor(1));
  });
});

describe('Account.bidsConnection of a page of accounts', () => {
  it('answers each account its own bids, as each account’s own list does', async () => {
    const query = `query($p: String!) { accountsConnection(first: 10, platformId: $p, accountType: "user") { nodes { id bids { id } bidsConnection(first: 100) { totalCount nodes { id } } } } }`;
    const body = (await world.t.client.as(world.admin.keypair).graphql(query, { p: world.platform.publicKey() })).body;
    expect(body.errors).toBeUndefined();
    const nodes: { id: string; bids: { id: string }[]; bidsConnection: { totalCount: number; nodes: { id: string }[] } }[] = body.data.accountsConnection.nodes;
    expect(nodes).toHaveLength(10);
    for (const node of nodes) {
      expect(node.bidsConnection.nodes).toEqual(node.bids);
      expect(node.bidsConnection.totalCount).toBe(node.bids.length);
    }
    expect(nodes.find((n) => n.id === world.users[0].id)?.bids).toHaveLength(5);
  });
});

describe('Account.lotsConnection', () => {
  it('shows the reserve to the lots’ managers alone, as the old list does', async () => {
    const selection = (f: string) => `${f} { id prices { reserve { amount } } }`;
    const reserves = async (who: Keypair | null) => {
      const body = await accountOf(who, world.admin.id, `${selection('lots')} lotsConnection(first: 100) { nodes { id prices { reserve { amount } } } }`);
      expect(body.errors).toBeUndefined();
      expect(body.data.account.lotsConnection.nodes).toEqual(body.data.account.lots);
      return body.data.account.lots.map((l: any) => l.prices.reserve?.amount ?? null);
    };
    expect(await reserves(world.admin.keypair)).toEqual(['2000.00', '2000.00', '2000.00', null]);
    expect(await reserves(world.otherAdmin.keypair)).toEqual([null, null, null, null]);
    expect(await reserves(null)).toEqual([null, null, null, null]);
  });
});
