import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../db/raw';
import { sql } from '../../db/sql';
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
