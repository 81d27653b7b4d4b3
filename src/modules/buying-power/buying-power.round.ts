import Decimal from 'decimal.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../core/errors';
import { Money } from '../../core/money';
import { rowsOf } from '../../db/query';
import type { RawTransaction, Rows } from '../../db/raw';
import { sql } from '../../db/sql';
import { lockPower, powerQuery, powerRowsOf } from './buying-power.sql';

/** The buying power of the bidders of one round of bids, under their locks. */
export interface RoundPower {
  /** The most the account may lead the round's lot with, in the lot's currency (negative when its limit shrank below what it holds elsewhere). */
  headroom(accountId: string): Money;
}

/** A lot whose rules may hold its bidders to buying power. */
interface PoweredLot {
  id: string;
  publisherId: string;
}

function powerOf(rows: Rows, multiple: string): RoundPower {
  const headrooms = new Map(powerRowsOf(rows).map((p) => [p.accountId, p.deposits.times(multiple).minus(p.inUse).toDecimalPlaces(2, Decimal.ROUND_FLOOR)]));
  return { headroom: (accountId) => headrooms.get(accountId) ?? new Money(0) };
}

/**
 * Locks the accounts' buying power on the lot's platform for the rest of the round's transaction
 * and reads what each holds on the platform's other lots: one more round trip, taken only by
 * lots whose rules set `buyingPowerMultiple`. What an account leads on the round's own lot is
 * left out, since a bid there replaces it.
 */
export async function roundPower(tx: RawTransaction, lot: PoweredLot, multiple: string, accountIds: readonly string[]): Promise<RoundPower> {
  const [, rows] = await tx.query([lockPower(lot.publisherId, accountIds), sql.render(powerQuery(lot.publisherId, accountIds, lot.id))]);
  return powerOf(rows, multiple);
}

/**
 * The buying power rule (docs/auction-rules.md), for every path that makes an account hold an
 * amount on a lot: a bid, a max bid, and a win (the winner choice, a second-chance offer
 * accepted). An amount beyond what the account's buying power leaves for this lot is refused.
 */
export function requireBuyingPower(power: RoundPower, accountId: string, amount: Money | undefined, field: string, what: string = field): void {
  const headroom = power.headroom(accountId);
  if (amount !== undefined && amount.gt(headroom)) {
    throw invalid('buying_power_exceeded', `${what} exceeds the buying power left for this lot (${Money.max(headroom, 0).toFixed(2)})`, { field });
  }
}

/**
 * The rule for a winner about to hold `amount` on a lot its caller locked: under the same
 * account lock as the bid rounds (after the lot's row, as they take it), so that a round on
 * another lot of the platform and this win see each other's amounts.
 */
export async function requireWinnerPower(em: EntityManager, lot: PoweredLot, multiple: string, accountId: string, amount: Money, field: string): Promise<void> {
  await rowsOf(em, lockPower(lot.publisherId, [accountId]));
  const rows = await rowsOf<Rows[number]>(em, powerQuery(lot.publisherId, [accountId], lot.id));
  requireBuyingPower(powerOf(rows, multiple), accountId, amount, field, `the winning price (${amount.toFixed(2)})`);
}
