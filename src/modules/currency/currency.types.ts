import { Field, InputType, ObjectType } from 'type-graphql';
import { formatMoney } from '../../core/money';
import { rfc3339 } from '../../core/time';
import type { CurrencyRate } from './currency.entity';
import { formatRate } from './currency.input';
import { conversionId, type Conversion } from './currency.service';

@ObjectType('ConvertedCurrency', { description: 'An amount converted through EUR, rounded half-up to two decimals' })
export class ConvertedCurrencyGql {
  @Field(() => String, { description: 'Stable id of the question, e.g. USD-EUR-110.50' }) id!: string;
  @Field(() => String, { description: 'Two decimals' }) amount!: string;
  @Field(() => String) currency!: string;
}

export const convertedCurrencyGql = (c: Conversion): ConvertedCurrencyGql => ({ id: conversionId(c), amount: formatMoney(c.result), currency: c.to });

@InputType('ConvertInput', { description: 'One conversion of convertMany' })
export class ConvertInputGql {
  @Field(() => String, { description: 'USD, EUR, GEL, UAH or BTC' }) from!: string;
  @Field(() => String, { description: 'USD, EUR, GEL, UAH or BTC' }) to!: string;
  @Field(() => String, { description: 'Non-negative, at most two decimals ("110.5")' }) amount!: string;
}

@ObjectType('CurrencyRate', { description: 'How many units of a currency one euro buys' })
export class CurrencyRateGql {
  @Field(() => String) currency!: string;
  @Field(() => String, { description: 'Decimal string, e.g. "1.08"' }) unitsPerEur!: string;
  @Field(() => String, { description: 'RFC 3339: the date of the source, or when the master account set it', deprecationReason: 'Use `asOfTime`' }) asOf!: string;
  @Field(() => Date, { description: 'The time of `asOf`' }) asOfTime!: Date;
}

export const currencyRateGql = (r: CurrencyRate): CurrencyRateGql => ({ currency: r.currency, unitsPerEur: formatRate(r.unitsPerEur), asOf: rfc3339(r.asOf), asOfTime: r.asOf });
