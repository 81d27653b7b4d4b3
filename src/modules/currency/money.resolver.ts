import { Arg, Ctx, Extensions, FieldResolver, Resolver, Root } from 'type-graphql';
import { Money } from '../../core/money';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { CurrencyGql, money, MoneyGql } from '../../graphql/types/money';
import { shownPrice } from './currency.service';
import { readsThroughLoader } from '../../graphql/statement-cost';

@Resolver(() => MoneyGql)
export class MoneyResolver {
  /**
   * The operator's rates, read once per request, converting through EUR and rounding half up to
   * two decimals: a lot's price in EUR is the same text REST shows for the lot in EUR.
   */
  @Extensions(readsThroughLoader())
  @FieldResolver(() => MoneyGql, { name: 'in', description: "The amount converted to `currency` at the operator's rates (through EUR, rounded half up to the cent)" })
  async converted(@Root() value: Source<MoneyGql>, @Arg('currency', () => CurrencyGql) currency: string, @Ctx() { loaders }: GraphQLContext): Promise<MoneyGql> {
    if (currency === value.currency) return value;
    const convert = await loaders.converter.load('');
    return money(shownPrice(convert, new Money(value.amount), value.currency, currency), currency);
  }
}
