import { Extensions, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { listItems } from '../../graphql/list-items';
import { CurrencyGql, money, MoneyGql } from '../../graphql/types/money';
import { LOT_GROUPS, MAX_GROUPS, type LotGroup, type LotsAggregate, type LotSums } from './lots.aggregate';
import { LOT_STATE_NAMES, type LotState } from './lots.entity';
import { LotStateGql } from './lots.types';

export const LotGroupByGql = Object.fromEntries(LOT_GROUPS.map((g) => [g.toUpperCase(), g])) as Record<Uppercase<LotGroup>, LotGroup>;
registerEnumType(LotGroupByGql, { name: 'LotGroupBy', description: 'What `lotsAggregate` groups the lots by: their stored state, their maker, the platform that publishes them' });

@ObjectType('LotPriceSums', { description: "Sums of the lots' prices in one currency, each lot's price converted and rounded to the cent as `lots` shows it first. The reserve is never summed" })
export class LotPriceSumsGql {
  @Field(() => MoneyGql, { description: 'Each lot at its price as `lots` sorts by it: its highest bid, else its buy-now price (direct sales) or start price (auctions)' }) price!: MoneyGql;
  @Field(() => MoneyGql) startPrice!: MoneyGql;
  @Field(() => MoneyGql) buyNowPrice!: MoneyGql;
  @Field(() => MoneyGql, { description: 'Each lot at its highest bid, 0 before the first' }) highestBid!: MoneyGql;
}

@ObjectType('LotsAggregateGroup', { description: 'The lots of one group; of `state`, `maker` and `platformId`, the one grouped by is set' })
export class LotsAggregateGroupGql {
  @Field(() => LotStateGql, { nullable: true }) state!: LotState | null;
  @Field(() => String, { nullable: true, description: 'The maker as stored; null for the lots without one' }) maker!: string | null;
  @Field(() => ID, { nullable: true }) platformId!: string | null;
  @Field(() => Int) count!: number;
  @Field(() => LotPriceSumsGql) sums!: LotPriceSumsGql;
}

@ObjectType('LotsAggregate', { description: 'The count and price sums of the lots `lots(filter:)` lists to the caller' })
export class LotsAggregateGql {
  @Field(() => Int) count!: number;
  @Field(() => CurrencyGql) currency!: string;
  @Field(() => LotPriceSumsGql) sums!: LotPriceSumsGql;
  @Field(() => [LotsAggregateGroupGql], { description: `With groupBy, the largest ${MAX_GROUPS} groups, the largest first (ties by key); else none` })
  @Extensions(listItems(MAX_GROUPS))
  groups!: LotsAggregateGroupGql[];
  @Field(() => Boolean, { description: `More than ${MAX_GROUPS} groups matched: the smallest are not in groups (count and sums hold every lot)` }) groupsTruncated!: boolean;
}

const STATE_CODES = new Map(Object.entries(LOT_STATE_NAMES).map(([code, name]) => [name, Number(code) as LotState]));

const sumsGql = (s: LotSums, currency: string): LotPriceSumsGql => ({
  price: money(s.price, currency),
  startPrice: money(s.startPrice, currency),
  buyNowPrice: money(s.buyNowPrice, currency),
  highestBid: money(s.highestBid, currency),
});

export function lotsAggregateGql(a: LotsAggregate): LotsAggregateGql {
  return {
    count: a.count,
    currency: a.currency,
    sums: sumsGql(a.sums, a.currency),
    groups: a.groups.map((g) => ({
      state: a.groupBy === 'state' && g.key !== null ? (STATE_CODES.get(g.key) ?? null) : null,
      maker: a.groupBy === 'maker' ? g.key : null,
      platformId: a.groupBy === 'platform' ? g.key : null,
      count: g.count,
      sums: sumsGql(g.sums, a.currency),
    })),
    groupsTruncated: a.groupsTruncated,
  };
}
