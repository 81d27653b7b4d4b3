import { Field, InputType, ObjectType } from 'type-graphql';
import { formatMoney } from '../../core/money';
import { rfc3339 } from '../../core/time';
import { NodeGql } from '../../graphql/types/node';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import type { CurrencyRate } from './currency.entity';
import { formatRate } from './currency.input';
import { conversionId, type Conversion } from './currency.service';

@ObjectType('ConvertedCurrency', { implements: NodeGql, description: 'An amount converted through EUR, rounded half-up to two decimals' })
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

@InputType('UpdateCurrencyRateInput')
export class UpdateCurrencyRateInput {
  @Field(() => String) currency!: string;
  @Field(() => String, { description: 'Units of the currency per 1 EUR: positive, at most 12 decimals' }) unitsPerEur!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('UpdateCurrencyRatePayload')
export class UpdateCurrencyRatePayloadGql {
  @Field(() => CurrencyRateGql, { nullable: true, description: 'The rate as of now' }) currencyRate!: CurrencyRateGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
