import { rowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import { Lot, LotState } from '../../src/modules/lots/lots.entity';
import { hasEnded, isClosed, isOpen, notClosedSql, openSql, openWhere, overSql, takesBids } from '../../src/modules/lots/lots.open';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

const world = appWithPlatform();

const NOW = new Date(Date.now() + 3_600_000);
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

/** Each edge case of "open", as a change of a lot row, and what the rules say of it at NOW. */
const CASES: { name: string; row: Partial<Lot>; open: boolean; closed: boolean; bids: boolean }[] = [
  { name: 'running', row: { startTime: at(-60), endTime: at(60) }, open: true, closed: false, bids: true },
  { name: 'exactly at its end time', row: { startTime: at(-60), endTime: at(0) }, open: false, closed: false, bids: false },
  { name: 'a millisecond before its end', row: { startTime: at(-60), endTime: at(0.001) }, open: true, closed: false, bids: true },
  { name: 'scheduled', row: { startTime: at(60), endTime: at(120) }, open: true, closed: false, bids: false },
  { name: 'ended, still pending', row: { startTime: at(-120), endTime: at(-60) }, open: false, closed: false, bids: false },
  { name: 'closed as sold before its end', row: { lotState: LotState.Sold, startTime: at(-60), endTime: at(60) }, open: false, closed: true, bids: false },
  { name: 'cancelled (closed as finished) before its end', row: { lotState: LotState.Finished, startTime: at(-60), endTime: at(60) }, open: false, closed: true, bids: false },
  { name: 'soft-close-extended past its first end', row: { startTime: at(-120), endTime: at(30), duration: 60, extensions: 2, extendedSeconds: 90 }, open: true, closed: false, bids: true },
];

describe('"lot is open": the TypeScript rules and their SQL and ORM twins agree on the same rows', () => {
  it('at each edge case', async () => {
    const em = world.t.orm.em.fork();
    const ids = new Map<string, string>();
    for (const c of CASES) {
      const lot = await createLot(world.t, world.platform, ENG_LOT);
      await em.nativeUpdate(Lot, { id: lot.id }, c.row);
      ids.set(lot.id, c.name);
    }
    const lots = await em.find(Lot, { id: { $in: [...ids.keys()] } }, { refresh: true });
    const inSql = await rowsOf<{ id: string; open: boolean; over: boolean; not_closed: boolean }>(
      em,
      sql`select l.id, ${openSql(NOW)} as open, ${overSql(NOW)} as over, ${notClosedSql()} as not_closed from lots l where l.id in (${sql.list([...ids.keys()])})`,
    );
    const openByOrm = new Set((await em.find(Lot, { id: { $in: [...ids.keys()] }, ...openWhere(NOW) })).map((l) => l.id));

    const seen = lots.map((lot) => {
      const row = inSql.find((r) => String(r.id) === lot.id);
      return {
        name: ids.get(lot.id),
        open: [isOpen(lot, NOW), row?.open, !row?.over, openByOrm.has(lot.id), !isClosed(lot) && !hasEnded(lot, NOW)],
        closed: [isClosed(lot), !row?.not_closed],
        bids: takesBids(lot, NOW),
      };
    });
    const expected = CASES.map((c) => ({ name: c.name, open: Array(5).fill(c.open), closed: [c.closed, c.closed], bids: c.bids }));
    const byName = (a: { name?: string }, b: { name?: string }) => String(a.name).localeCompare(String(b.name));
    expect(seen.sort(byName)).toEqual(expected.sort(byName));
  });
});
