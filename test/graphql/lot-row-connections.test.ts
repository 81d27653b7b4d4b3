import type { Keypair } from '@stellar/stellar-sdk';
import { Money } from '../../src/core/money';
import { Deposit, DepositState, Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { Callback, Star } from '../../src/modules/watchlist/watchlist.entity';
import { createLot, ENG_LOT } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWith, twoPlatforms } from '../helpers/world';
import { type ConnectionPage, expectWalksBothWays } from './connection.helpers';

// The connection twins of a lot's private rows (participants, deposits, callbacks, stars): each
// pages forwards and backwards over what the deprecated list shows the caller, newest first,
// counts only that, refuses a cursor it did not make, and costs one statement set per request.

jest.setTimeout(120_000);

const world = appWith(async (t) => {
  const { admin, otherAdmin, users } = await twoPlatforms(t, 4);
  const lot = await createLot(t, admin.keypair, ENG_LOT);
  const lotId = String(lot.id);
  const otherLotId = String((await createLot(t, admin.keypair, ENG_LOT)).id);
  const em = t.orm.em.fork();
  for (const u of users) {
    const participant = em.create(Participant, { lotId, accountId: u.id, state: ParticipantState.Pending });
    await em.flush();
    em.create(Deposit, { lotId, participantId: participant.id, accountId: u.id, amount: new Money('100'), currency: 'USD', state: DepositState.Pending });
    em.create(Callback, { lotId, accountId: u.id });
    em.create(Star, { lotId, accountId: u.id });
    await em.flush();
  }
  return { admin, otherAdmin, users, lotId, otherLotId };
});

type Page = ConnectionPage;

/** A twin of a deprecated list of Lot, with the field that keys its nodes. */
const TWINS: [string, string, string][] = [
  ['participantsConnection', 'participants', 'id'],
  ['depositsConnection', 'deposits', 'id'],
  ['callbacksConnection', 'callbacks', 'id'],
  ['starsConnection', 'stars', 'accountId'],
];

async function lotOf(who: Keypair, selection: string): Promise<any> {
  const res = await world.t.client.as(who).graphql(`query($id: ID!) { lot(id: $id) { ${selection} } }`, { id: world.lotId });
  return res.body;
}

async function pageOf(who: Keypair, field: string, key: string, args: string): Promise<Page> {
  const body = await lotOf(who, `${field}(${args}) { edges { cursor node { ${key} } } nodes { ${key} } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount }`);
  expect(body.errors).toBeUndefined();
  return body.data.lot[field];
}

/** The deprecated list's keys, newest first as its twin pages them. */
async function oldOf(who: Keypair, list: string, key: string): Promise<string[]> {
  const body = await lotOf(who, `${list} { ${key} }`);
  expect(body.errors).toBeUndefined();
  return body.data.lot[list].map((row: Record<string, unknown>) => String(row[key])).reverse();
}

const keysOf = (page: Page, key: string) => page.edges.map((e) => String(e.node[key]));

describe.each(TWINS)('Lot.%s', (field, list, key) => {
  it('pages forwards and backwards over the rows the old list shows the lot’s staff, newest first, counting them all', async () => {
    const who = world.admin.keypair;
    const all = await oldOf(who, list, key);
    expect(all).toHaveLength(4);
    await expectWalksBothWays((args) => pageOf(who, field, key, args), (page) => keysOf(page, key), all, 3);
  });

  it('shows a user only its own row and another platform’s staff none, as the old list does', async () => {
    for (const who of [world.users[0].keypair, world.otherAdmin.keypair]) {
      const seen = await oldOf(who, list, key);
      const page = await pageOf(who, field, key, 'first: 100');
      expect(keysOf(page, key)).toEqual(seen);
      expect(page.totalCount).toBe(seen.length);
    }
    expect(await oldOf(world.users[0].keypair, list, key)).toHaveLength(1);
    expect((await pageOf(world.otherAdmin.keypair, field, key, 'first: 100')).totalCount).toBe(0);
  });

  it('refuses a cursor of another list and a made-up one, naming the argument', async () => {
    const other = TWINS.find(([f]) => f !== field)!;
    const foreign = (await pageOf(world.admin.keypair, other[0], other[2], 'first: 1')).edges[0].cursor;
    for (const [arg, cursor] of [['after', foreign], ['before', foreign], ['after', Buffer.from('["id",1]').toString('base64url')], ['after', '1']]) {
      const body = await lotOf(world.admin.keypair, `${field}(first: 1, ${arg}: "${cursor}") { totalCount }`);
      expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_cursor', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
    }
  });

  it('runs the same statements for a page of one row and of four', async () => {
    const statementsFor = async (first: number) => {
      let page: Page | undefined;
      const sent = await statementsSent(async () => {
        page = await pageOf(world.admin.keypair, field, key, `first: ${first}`);
      });
      expect(page?.edges).toHaveLength(first);
      return sent.length;
    };
    await statementsFor(1);
    expect(await statementsFor(4)).toBe(await statementsFor(1));
  });

  it('reads its rows for several lots of a request in the one statement it reads them for one', async () => {
    const added = async (n: number) => {
      const query = (withTwin: boolean) => `{ lots(first: ${n}) { nodes { id ${withTwin ? `${field}(first: 2) { totalCount }` : ''} } } }`;
      const count = async (q: string) => {
        let body: any;
        const sent = await statementsSent(async () => {
          body = (await world.t.client.as(world.admin.keypair).graphql(q)).body;
        });
        expect(body.errors).toBeUndefined();
        expect(body.data.lots.nodes).toHaveLength(n);
        return sent.length;
      };
      await count(query(true));
      return (await count(query(true))) - (await count(query(false)));
    };
    const one = await added(1);
    expect(one).toBeGreaterThan(0);
    expect(await added(2)).toBe(one);
  });
});
