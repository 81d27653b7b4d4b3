import { Money } from '../../core/money';
import type { Rows, Statement } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import { notClosedSql } from '../lots';
import { DepositState, ParticipantState } from '../trading';

/** An account's paid deposits and the bids it holds on one platform, in one currency (see `powerQuery`). */
export interface PowerRow {
  accountId: string;
  deposits: Money;
  inUse: Money;
}

/**
 * The statement that serialises the bids of these accounts on the platform's lots, whichever lot
 * and instance they are on: one transaction-scoped advisory lock per (account, platform), taken in
 * the order of the account ids so that two rounds locking the same accounts never deadlock (each
 * round holds one lot row before, and no other path takes these locks). It also answers the rate
 * of the round's lot (units per EUR), which its bids are converted with.
 */
export function lockPower(platformId: string, accountIds: readonly string[]): Statement {
  const sorted = [...new Set(accountIds)].sort();
  return sql.render(sql`select count(pg_advisory_xact_lock(hashtextextended('buying-power:' || a || ':' || ${platformId}::text, 0))) as locked
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
 * Without `inLot`, counted in EUR, as the account is shown them: each amount at its rate (a lot's
 * amounts at its stored rate, a deposit at its currency's), summed to the cent, so that the limit
 * shown is the multiple of the deposits shown. With `inLot`, counted in that lot's currency, as a
 * round on it holds its bids, and leaving that lot out (a bid there replaces what is held there):
 * unrounded, an amount already in that currency as it is and any other multiplied before it is
 * divided, so that 10 × a 100.00 USD deposit lets a USD lot take exactly 1,000.00.
 */
export function powerQuery(platformId: string, accountIds: readonly string[], inLot: string | null): Sql {
  const price = sql`case when p.state = ${ParticipantState.BuyNowWinner} then l.buy_now_price else coalesce(p.current_bid, l.start_price) end`;
  const deposit = inLot ? sql`case when d.currency = h.currency then d.amount else d.amount * h.units_per_eur / r.units_per_eur end` : sql`d.amount / r.units_per_eur`;
  const held = inLot ? sql`case when l.currency = h.currency then ${price} else ${price} * h.units_per_eur / l.units_per_eur end` : sql`${price} / l.units_per_eur`;
  const total = (sum: Sql) => (inLot ? sql`coalesce(sum(${sum}), 0)::text` : sql`round(coalesce(sum(${sum}), 0), 2)::text`);
  return sql`select a.id as account_id,
    (select ${total(deposit)} from deposits d
       join lots l on l.id = d.lot_id join currency_rates r on r.currency = d.currency
      where d.account_id = a.id and d.state = ${DepositState.Paid} and l.publisher_id = ${platformId}) as deposits,
    (select ${total(held)}
       from participants p join lots l on l.id = p.lot_id left join winner_details w on w.lot_id = l.id
      where p.account_id = a.id and l.publisher_id = ${platformId} and ${notClosedSql()} and l.id is distinct from ${inLot}::bigint
        and ((p.state = ${ParticipantState.Pending} and l.winner_id is null and p.current_bid = l.highest_bid)
          or (p.state in (${sql.list([ParticipantState.Winner, ParticipantState.BuyNowWinner])}) and w.invoice_paid is not true))) as in_use
    from unnest(${sql.array([...accountIds], 'text')}) as a(id)${inLot ? sql` cross join (select currency, units_per_eur from lots where id = ${inLot}::bigint) h` : sql``}`;
}

export const powerRowsOf = (rows: Rows): PowerRow[] =>
  rows.map((r) => ({ accountId: r.account_id as string, deposits: new Money(r.deposits as string), inUse: new Money(r.in_use as string) }));
