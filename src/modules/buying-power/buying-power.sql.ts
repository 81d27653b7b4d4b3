import { Money } from '../../core/money';
import type { Rows, Statement } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import { notClosedSql } from '../lots';
import { DepositState, ParticipantState } from '../trading';

/** An account's paid deposits and the bids it holds on one platform, in EUR to the cent. */
export interface PowerRow {
  accountId: string;
  depositsEur: Money;
  inUseEur: Money;
}

/**
 * The statement that serialises the bids of these accounts on the platform's lots, whichever lot
 * and instance they are on: one transaction-scoped advisory lock per (account, platform), taken in
 * the order of the account ids so that two rounds locking the same accounts never deadlock (each
 * round holds one lot row before, and no other path takes these locks). It also answers the rate
 * of the round's lot (units per EUR), which its bids are converted with.
 */
export function lockPower(platformId: string, lotId: string, accountIds: readonly string[]): Statement {
  const sorted = [...new Set(accountIds)].sort();
  return sql.render(sql`select (select units_per_eur::text from lots where id = ${lotId}::bigint) as rate,
    count(pg_advisory_xact_lock(hashtextextended('buying-power:' || a || ':' || ${platformId}::text, 0))) as locked
    from unnest(${sql.array(sorted, 'text')}) as a`);
}

/**
 * What each account has of buying power on the platform, read after `lockPower` (a statement of
 * its own, so that its snapshot sees what the lock waited for):
 * - paid deposits: its deposits in state paid on the platform's lots;
 * - in use: on the platform's open lots (not closed as sold or finished), the highest bid of each
 *   lot it leads while no winner is chosen, and each lot it won whose invoice is not paid: its
 *   winning bid (else the start price, as the winner choice charges), or the buy-now price for a
 *   buy-now winner. A deal canceled leaves the winner state, and so the amount in use.
 * Amounts are converted at the lots' stored rates and summed to the cent, so that the limit shown
 * is the multiple of the deposits shown, and the round holds bids to those same figures. `exceptLot` leaves one lot out (the round's own).
 */
export function powerQuery(platformId: string, accountIds: readonly string[], exceptLot: string | null): Sql {
  return sql`select a.id as account_id,
    (select round(coalesce(sum(d.amount / r.units_per_eur), 0), 2)::text from deposits d
       join lots l on l.id = d.lot_id join currency_rates r on r.currency = d.currency
      where d.account_id = a.id and d.state = ${DepositState.Paid} and l.publisher_id = ${platformId}) as deposits_eur,
    (select round(coalesce(sum(case when p.state = ${ParticipantState.BuyNowWinner} then l.buy_now_price else coalesce(p.current_bid, l.start_price) end / l.units_per_eur), 0), 2)::text
       from participants p join lots l on l.id = p.lot_id left join winner_details w on w.lot_id = l.id
      where p.account_id = a.id and l.publisher_id = ${platformId} and ${notClosedSql()} and l.id is distinct from ${exceptLot}::bigint
        and ((p.state = ${ParticipantState.Pending} and l.winner_id is null and p.current_bid = l.highest_bid)
          or (p.state in (${sql.list([ParticipantState.Winner, ParticipantState.BuyNowWinner])}) and w.invoice_paid is not true))) as in_use_eur
    from unnest(${sql.array([...accountIds], 'text')}) as a(id)`;
}

export const powerRowsOf = (rows: Rows): PowerRow[] =>
  rows.map((r) => ({ accountId: r.account_id as string, depositsEur: new Money(r.deposits_eur as string), inUseEur: new Money(r.in_use_eur as string) }));
