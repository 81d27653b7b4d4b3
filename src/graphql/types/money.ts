import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { CURRENCIES, formatMoney, type Money } from '../../core/money';
import { DecimalScalar } from './decimal-scalar';

/** The currencies a price, a deposit or an account may be in; each value is its ISO 4217 code. */
export const CurrencyGql = Object.fromEntries(CURRENCIES.map((c) => [c, c])) as { [C in (typeof CURRENCIES)[number]]: C };
registerEnumType(CurrencyGql, { name: 'Currency', description: 'A currency that prices, deposits and accounts may be in (ISO 4217 codes).' });

/**
 * An amount in its currency. `in(currency:)` (the currency module's resolver) converts it at the
 * operator's rates, so that a price seen in another currency is a field of the same object, not an
 * argument that makes another one: a normalised client cache keeps one `Lot:1`.
 */
@ObjectType('Money', { description: 'An exact amount in a currency. Ask `in(currency:)` for its value in another one.' })
export class MoneyGql {
  @Field(() => DecimalScalar, { description: 'The amount with two decimals, such as "1050.25"' }) amount!: string;
  @Field(() => CurrencyGql) currency!: string;
}

/** A Money value of an amount as the domain holds it. */
export const money = (amount: Money | string, currency: string): MoneyGql => ({ amount: typeof amount === 'string' ? amount : formatMoney(amount), currency });

/** A nullable amount (a reserve, an optional price) as Money, or null. */
export const maybeMoney = (amount: Money | string | null, currency: string): MoneyGql | null => (amount === null ? null : money(amount, currency));
