import Decimal from 'decimal.js';
import { Money } from '../../core/money';
import type { RawTransaction } from '../../db/raw';
import { sql } from '../../db/sql';
import { lockPower, powerQuery, powerRowsOf } from './buying-power.sql';

/** The buying power of the bidders of one round of bids, under their locks. */
export interface RoundPower {
  /** The most the account may lead the round's lot with, in the lot's currency (negative when its limit shrank below what it holds elsewhere). */
  headroom(accountId: string): Money;
}

/**
 * Locks the accounts' buying power on the lot's platform for the rest of the round's transaction
 * and reads what each holds on the platform's other lots: one more round trip, taken only by
 * lots whose rules set `buyingPowerMultiple`. What an account leads on the round's own lot is
 * left out, since a bid there replaces it.
 */
export async function roundPower(tx: RawTransaction, lot: { id: string; publisherId: string }, multiple: string, accountIds: readonly string[]): Promise<RoundPower> {
  const [[locked], rows] = await tx.query([lockPower(lot.publisherId, lot.id, accountIds), sql.render(powerQuery(lot.publisherId, accountIds, lot.id))]);
  const rate = new Money(locked.rate as string);
  const headrooms = new Map(
    powerRowsOf(rows).map((p) => [p.accountId, p.depositsEur.times(multiple).minus(p.inUseEur).times(rate).toDecimalPlaces(2, Decimal.ROUND_FLOOR)]),
  );
  return { headroom: (accountId) => headrooms.get(accountId) ?? new Money(0) };
}
