import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';
import { windowOf } from '../../db/window';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { standingColumns, standingOfColumns, type StandingColumns } from './participants.columns';
import type { Participant } from './trading.entity';

/** A participant and whether its bid is the lot's highest (the lot's leader). */
export type Standing = Pick<Participant, 'id' | 'lotId' | 'accountId' | 'state' | 'requestedBuyNow' | 'currentBid' | 'maxBid' | 'createdAt' | 'updatedAt'> & { leading: boolean };

type StandingRow = StandingColumns & { leading: boolean };

/**
 * Leading: the participant's last bid is the lot's highest. A lot's accepted amounts rise strictly
 * (bids.round.ts takes its leader by the same equality), so at most one participant leads.
 */
const COLUMNS = sql`${standingColumns(sql`p`)}, coalesce(p.current_bid = l.highest_bid, false) as leading`;

const standingOf = (r: StandingRow): Standing => ({ ...standingOfColumns(r), leading: r.leading });

async function standings(em: EntityManager, where: Sql, tail: Sql): Promise<Standing[]> {
  return (await rowsOf<StandingRow>(em, sql`select ${COLUMNS} from participants p join lots l on l.id = p.lot_id where ${where} ${tail}`)).map(standingOf);
}

/** A window of the account's participations, newest first, paged in the database. */
export async function standingsWindow(em: EntityManager, accountId: string, window: ListWindow): Promise<WindowPage<Standing>> {
  const page = await windowOf<StandingRow>(em, { columns: COLUMNS, from: sql`participants p join lots l on l.id = p.lot_id`, where: sql`p.account_id = ${accountId}`, order: { key: null, id: sql`p.id` } }, window);
  return { ...page, items: page.items.map(standingOf) };
}

/** The account's newest `limit` participations, newest first. */
export const standingsOfAccount = (em: EntityManager, accountId: string, limit: number) =>
  standings(em, sql`p.account_id = ${accountId}`, sql`order by p.id desc limit ${limit}`);

/** The account's participation in each of the lots it takes part in. */
export const standingsOnLots = (em: EntityManager, accountId: string, lotIds: readonly string[]) =>
  standings(em, sql`p.account_id = ${accountId} and p.lot_id = any (${sql.array(lotIds, 'bigint')})`, sql``);
