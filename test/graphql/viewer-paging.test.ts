import type { Keypair } from '@stellar/stellar-sdk';
import { Notification, NotificationType } from '../../src/modules/notifications/notifications.entity';
import { Star } from '../../src/modules/watchlist/watchlist.entity';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWith } from '../helpers/world';

/**
 * The viewer's lists are paged in the database: more than 100 items each, every one reachable
 * forwards and backwards, `totalCount` the whole list's, and a page deep in the list read in the
 * same statements as the first.
 */
const ROWS = 130;

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const viewer = await createAccount(t, platform);
  const other = await createAccount(t, platform);
  const first = await createLot(t, platform, ENG_LOT);
  const em = t.orm.em.fork();
  // Copies of one lot under new ids: the lists need one lot per row, and 130 lots made one by one over HTTP take too long.
  const columns = (
    await em.getConnection().execute<{ name: string }[]>(
      "select column_name as name from information_schema.columns where table_name = 'lots' and table_schema = current_schema() and is_generated = 'NEVER' and column_name <> 'id'",
    )
  )
    .map((c) => `"${c.name}"`)
    .join(', ');
  const made = await em.getConnection().execute<{ id: string }[]>(`insert into lots (${columns}) select ${columns} from lots l, generate_series(2, ?) where l.id = ? returning id`, [ROWS, first.id]);
  const ids = made.map((r) => String(r.id)).sort((a, b) => Number(a) - Number(b));
  const lotIds = [String(first.id), ...ids];
  // Two rows to a timestamp: the order's ties are broken by the id.
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2) * 1000);
  lotIds.forEach((lotId, i) => {
    em.create(Star, { accountId: viewer.id, lotId, createdAt: at(i) });
    em.create(Participant, { lotId, accountId: viewer.id, state: ParticipantState.Pending });
    em.create(Notification, { recipient: viewer.id, type: NotificationType.Overbid, meta: { lot_id: lotId }, createdAt: at(i) });
  });
  // Another account's rows are in no list of the viewer's.
  em.create(Star, { accountId: other.id, lotId: lotIds[0] });
  em.create(Notification, { recipient: other.id, type: NotificationType.Overbid, meta: {} });
  await em.flush();
  return { viewer, other, lotIds };
});

const gql = (who: Keypair, query: string, variables?: Record<string, unknown>) => world.t.client.as(who).graphql(query, variables);

const LISTS = {
  participations: 'lotId',
  watchlist: 'lotId',
  notifications: 'id',
} as const;
type List = keyof typeof LISTS;

const pageOf = (list: List) => `query($first: Int, $after: String, $last: Int, $before: String) {
  viewer { ${list}(first: $first, after: $after, last: $last, before: $before) {
    totalCount nodes { ${LISTS[list]} } edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  } }
}`;

async function page(list: List, args: Record<string, unknown>, who: CreatedAccount = world.viewer) {
  const res = await gql(who.keypair, pageOf(list), args);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.viewer[list];
}

/** The list in its order, newest first, as the database holds it. */
async function truth(list: List): Promise<string[]> {
  const em = world.t.orm.em.fork();
  const viewer = world.viewer.id;
  if (list === 'participations') return (await em.find(Participant, { accountId: viewer }, { orderBy: { id: 'desc' } })).map((p) => p.lotId);
  if (list === 'watchlist') return (await em.find(Star, { accountId: viewer }, { orderBy: { createdAt: 'desc', lotId: 'desc' } })).map((s) => s.lotId);
  return (await em.find(Notification, { recipient: viewer, readAt: null }, { orderBy: { createdAt: 'desc', id: 'desc' } })).map((n) => n.id);
}

describe.each(Object.keys(LISTS) as List[])('Viewer.%s over more than 100 items', (list) => {
  const key = LISTS[list];

  it('counts every item, and pages forwards and backwards through all of them in the list order', async () => {
    const expected = await truth(list);
    expect(expected).toHaveLength(ROWS);
    const forwards: string[] = [];
    let after: string | null = null;
    for (let n = 0; ; n++) {
      const p = await page(list, { first: 40, after });
      expect(p.totalCount).toBe(ROWS);
      expect(p.pageInfo.hasPreviousPage).toBe(n > 0);
      forwards.push(...p.nodes.map((x: Record<string, string>) => x[key]));
      expect(p.edges.map((e: { cursor: string }) => e.cursor)).toEqual(p.nodes.length ? expect.arrayContaining([p.pageInfo.startCursor, p.pageInfo.endCursor]) : []);
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    expect(forwards).toEqual(expected);
    const backwards: string[] = [];
    let before: string | null = null;
    for (let n = 0; ; n++) {
      const p = await page(list, { last: 40, before });
      expect(p.pageInfo.hasNextPage).toBe(n > 0);
      backwards.unshift(...p.nodes.map((x: Record<string, string>) => x[key]));
      if (!p.pageInfo.hasPreviousPage) break;
      before = p.pageInfo.startCursor;
    }
    expect(backwards).toEqual(expected);
  });

  it('answers the items between two cursors, and refuses a cursor of another list naming its argument', async () => {
    const expected = await truth(list);
    const all = await page(list, { first: 100 });
    const cursors = all.edges.map((e: { cursor: string }) => e.cursor);
    const between = await page(list, { first: 100, after: cursors[9], before: cursors[20] });
    expect(between.nodes.map((x: Record<string, string>) => x[key])).toEqual(expected.slice(10, 20));
    expect(between.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const other = list === 'notifications' ? 'watchlist' : 'notifications';
    const foreign = (await page(other, { first: 1 })).pageInfo.endCursor;
    const res = await gql(world.viewer.keypair, pageOf(list), { first: 1, after: foreign });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'invalid_cursor', errors: [expect.objectContaining({ field: 'after' })] });
  });

  it('reads a page deep in the list in as many statements as the first page', async () => {
    const deep = (await page(list, { first: 100 })).pageInfo.endCursor;
    const count = async (args: Record<string, unknown>) => (await statementsSent(() => page(list, args))).length;
    const first = await count({ first: 20 });
    expect(await count({ first: 20, after: deep })).toBe(first);
    expect(await count({ last: 20 })).toBe(first);
  });

  it("shows another account none of the viewer's items", async () => {
    const p = await page(list, { first: 100 }, world.other);
    expect(p.totalCount).toBe(list === 'participations' ? 0 : 1);
  });
});
