import { Arg, Ctx, Extensions, ID, Mutation, Query, Resolver } from 'type-graphql';
import { formatMoney } from '../../core/money';
import type { GraphQLContext } from '../../graphql/context';
import { money } from '../../graphql/types/money';
import { payloadOf } from '../../graphql/user-errors';
import { withDates } from '../idempotency';
import type { RulesVersion } from './rules.service';
import { EditPlatformRulesInput, EditPlatformRulesPayloadGql, FeeEstimateGql, PlatformRulesGql, PlatformRulesInput } from './rules.types';
import { runsStatement } from '../../graphql/statement-cost';

const RULES = withDates<'platformRules', PlatformRulesGql>('platformRules', ['createdAt']);

/** GraphQL objects are plain data: the input's class instances are copied field by field into the domain input. */
const plain = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(plain) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)])) : value;

function rulesGql(r: RulesVersion): PlatformRulesGql {
  const { deposit } = r.rules;
  return {
    platformId: r.platformId,
    version: r.version,
    ...r.rules,
    deposit: deposit && ('fixed' in deposit ? { fixed: deposit.fixed, percent: null, floor: null } : { fixed: null, ...deposit }),
    createdAt: r.createdAt,
  };
}

@Resolver()
export class RulesResolver {
  @Extensions(runsStatement())
  @Query(() => PlatformRulesGql, { nullable: true, description: 'GET /platforms/{id}/rules: staff of the platform' })
  async platformRules(@Arg('platformId', () => ID) platformId: string, @Ctx() { ctx, services }: GraphQLContext): Promise<PlatformRulesGql> {
    return rulesGql(await services.rules.get(ctx, { platformId }));
  }

  @Mutation(() => PlatformRulesGql, { description: 'PATCH /platforms/{id}/rules: a new version, for lots created from now on', deprecationReason: 'Use editPlatformRules' })
  async updatePlatformRules(
    @Arg('platformId', () => ID) platformId: string,
    @Arg('rules', () => PlatformRulesInput) rules: PlatformRulesInput,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<PlatformRulesGql> {
    return rulesGql(await services.rules.update(ctx, { ...(plain(rules) as object), platformId }));
  }

  @Extensions(runsStatement())
  @Query(() => FeeEstimateGql, { nullable: true, description: "GET /lots/{id}/fee_estimate: the buyer's fee on an amount, in the lot's currency" })
  async feeEstimate(@Arg('lotId', () => ID) lotId: string, @Arg('amount', () => String) amount: string, @Ctx() { ctx, services }: GraphQLContext): Promise<FeeEstimateGql> {
    const e = await services.rules.feeEstimate(ctx, { lotId, amount });
    const [estimated, buyerFee, total] = [e.amount, e.buyerFee, e.total].map((m) => formatMoney(m));
    const { currency } = e.lot;
    return {
      lotId: e.lot.id,
      amount: estimated,
      buyerFee,
      total,
      currency,
      rulesVersion: e.lot.rulesVersion,
      amountMoney: money(estimated, currency),
      buyerFeeMoney: money(buyerFee, currency),
      totalMoney: money(total, currency),
    };
  }

  @Mutation(() => EditPlatformRulesPayloadGql, { description: 'A new version of the rules, for lots created from now on; staff of the platform; a refusal is answered in userErrors' })
  async editPlatformRules(@Arg('input', () => EditPlatformRulesInput) input: EditPlatformRulesInput, @Ctx() { ctx, services }: GraphQLContext): Promise<EditPlatformRulesPayloadGql> {
    const { idempotencyKey, ...rules } = plain(input) as EditPlatformRulesInput;
    return payloadOf({ platformRules: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'editPlatformRules', input: rules }, RULES, async () => ({
        platformRules: rulesGql(await services.rules.update(ctx, rules)),
      })),
    );
  }
}
