import type { EntityManager } from '@mikro-orm/postgresql';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { rawQuery } from '../../db/raw';
import { sql } from '../../db/sql';
import { windowsOf } from '../../db/window';
import type { ListedLot } from './lots.entity';
import { LOT_COLUMNS, lotsOfRows } from './lots.rows';

/** The newest `last` lots each account organized, newest first. */
export async function lotsOfOrganizers(em: EntityManager, accountIds: readonly string[], last: number): Promise<ListedLot[]> {
  const [{ rows }] = await rawQuery(
    em,
    sql.render(sql`select ${LOT_COLUMNS} from (
      select x.*, row_number() over (partition by x.organizer_id order by x.id desc) as n from lots x where x.organizer_id = any (${sql.array(accountIds, 'text')})
    ) l where l.n <= ${last} order by l.organizer_id, l.id desc`),
  );
  return lotsOfRows(rows);
}

/** The same window of the lots each account organized, newest first, in one statement for all the accounts. */
export async function lotWindowsOfOrganizers(em: EntityManager, accountIds: readonly string[], window: ListWindow): Promise<WindowPage<ListedLot>[]> {
  const pages = await windowsOf<Record<string, unknown>>(
    em,
    { columns: LOT_COLUMNS, from: sql`lots l`, where: (account) => sql`l.organizer_id = ${account}`, order: { key: null, id: sql`l.id` } },
    window,
    accountIds,
  );
  return pages.map((page) => ({ ...page, items: lotsOfRows(page.items) }));
}
