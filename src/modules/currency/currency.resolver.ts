import { Arg, Ctx, Extensions, Mutation, Query, Resolver } from 'type-graphql';
import { DomainError, invalid } from '../../core/errors';
import type { GraphQLContext } from '../../graphql/context';
import { registerNode } from '../../graphql/types/node';
import { listItems } from '../../graphql/list-items';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { CURRENCIES } from '../../core/money';
import { ConvertedCurrencyGql, convertedCurrencyGql, ConvertInputGql, CurrencyRateGql, currencyRateGql, UpdateCurrencyRateInput, UpdateCurrencyRatePayloadGql } from './currency.types';
import { runsStatement } from '../../graphql/statement-cost';

type Rated = Omit<UpdateCurrencyRatePayloadGql, 'userErrors'>;

/**
 * A conversion's id names its question (`USD-EUR-110.50`): refetching asks it again, at the
 * operator's rates of now, read once for the request's conversions. A question `convert` would
 * refuse is no id of a conversion.
 */
registerNode('ConvertedCurrency', async (key, { services, loaders }, field) => {
  const [from, to, amount, ...rest] = key.split('-');
  try {
    if (amount === undefined || rest.length) throw invalid('invalid_node_id', 'not a conversion');
    return convertedCurrencyGql(await services.currency.convertWith({ from, to, amount }, () => loaders.converter.load('')));
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'invalid') throw invalid('invalid_node_id', `${field} is not a global id of this service`, { field });
    throw err;
  }
});

@Resolver()
export class CurrencyResolver {
  @Extensions(runsStatement())
  @Query(() => ConvertedCurrencyGql, { description: 'GET /convert: an amount converted through EUR (public)' })
  async convert(
    @Arg('from', () => String) from: string,
    @Arg('to', () => String) to: string,
    @Arg('amount', () => String, { description: 'Non-negative, at most two decimals' }) amount: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<ConvertedCurrencyGql> {
    return convertedCurrencyGql(await services.currency.convert(ctx, { from, to, amount }));
  }

  @Extensions(runsStatement())
  @Query(() => [ConvertedCurrencyGql], { description: 'POST /convert: up to 100 conversions, answered in the same order (public)' })
  async convertMany(@Arg('items', () => [ConvertInputGql]) items: ConvertInputGql[], @Ctx() { ctx, services }: GraphQLContext): Promise<ConvertedCurrencyGql[]> {
    return (await services.currency.convertMany(ctx, { items })).map(convertedCurrencyGql);
  }

  @Extensions(listItems(CURRENCIES.length))
  @Extensions(runsStatement())
  @Query(() => [CurrencyRateGql], { description: 'The stored rates, units per 1 EUR (public)' })
  async currencyRates(@Ctx() { ctx, services }: GraphQLContext): Promise<CurrencyRateGql[]> {
    return (await services.currency.list(ctx)).map(currencyRateGql);
  }

  @Mutation(() => CurrencyRateGql, { description: 'Sets the rate of a currency as of now; the master account (or one of its signers) only. EUR is fixed at 1.', deprecationReason: 'Use updateCurrencyRate' })
  async setCurrencyRate(
    @Arg('currency', () => String) currency: string,
    @Arg('unitsPerEur', () => String, { description: 'Units of the currency per 1 EUR: positive, at most 12 decimals' }) unitsPerEur: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<CurrencyRateGql> {
    return currencyRateGql(await services.currency.setRate(ctx, { currency, unitsPerEur }));
  }

  @Mutation(() => UpdateCurrencyRatePayloadGql, { description: 'Sets the rate of a currency as of now; the master account (or one of its signers) only; a refusal is answered in userErrors' })
  async updateCurrencyRate(@Arg('input', () => UpdateCurrencyRateInput) input: UpdateCurrencyRateInput, @Ctx() { ctx, services }: GraphQLContext): Promise<UpdateCurrencyRatePayloadGql> {
    const { idempotencyKey, currency, unitsPerEur } = input;
    return payloadOf<Rated>({ currencyRate: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'updateCurrencyRate', input: { currency, unitsPerEur } }, asStored<Rated>(), async () => ({
        currencyRate: currencyRateGql(await services.currency.setRate(ctx, { currency, unitsPerEur })),
      })),
    );
  }
}
