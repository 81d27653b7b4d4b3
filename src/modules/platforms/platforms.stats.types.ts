import { Extensions, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { listItems } from '../../graphql/list-items';
import { CurrencyGql, money, MoneyGql } from '../../graphql/types/money';
import type { StatsUnit } from '../lots';
import { MAX_STATS_BUCKETS, STATS_INTERVALS, type PlatformStats } from './platforms.stats';

export const StatsIntervalGql = Object.fromEntries(STATS_INTERVALS.map((i) => [i.toUpperCase(), i])) as Record<Uppercase<StatsUnit>, StatsUnit>;
registerEnumType(StatsIntervalGql, { name: 'StatsInterval', description: 'The length of one interval of `platformStats`, at UTC; weeks start on Monday' });

@ObjectType('PlatformStatsInterval', { description: "A platform's activity over one interval [start, end)" })
export class PlatformStatsIntervalGql {
  @Field(() => Date) start!: Date;
  @Field(() => Date) end!: Date;
  @Field(() => Int, { description: 'Lots the platform published (created) in the interval' }) lotsListed!: number;
  @Field(() => Int, { description: 'Lots of the platform closed sold whose auction ended in the interval' }) lotsSold!: number;
  @Field(() => Int, { description: "Bids accepted on the platform's lots in the interval" }) bids!: number;
  @Field(() => Int, { description: "Distinct accounts with a bid accepted on the platform's lots in the interval" }) activeBidders!: number;
  @Field(() => MoneyGql, { description: "The sold lots' prices (their highest bid, else buy-now or start price), each converted and rounded to the cent first" }) gmv!: MoneyGql;
}

@ObjectType('PlatformStats', { description: "An operator's dashboard of a platform: its activity per interval" })
export class PlatformStatsGql {
  @Field(() => ID) platformId!: string;
  @Field(() => StatsIntervalGql) interval!: StatsUnit;
  @Field(() => CurrencyGql) currency!: string;
  @Field(() => [PlatformStatsIntervalGql], { description: `Every interval from \`from\` to \`to\`, oldest first (at most ${MAX_STATS_BUCKETS})` })
  @Extensions(listItems(MAX_STATS_BUCKETS))
  intervals!: PlatformStatsIntervalGql[];
}

export const platformStatsGql = (s: PlatformStats): PlatformStatsGql => ({
  platformId: s.platformId,
  interval: s.interval,
  currency: s.currency,
  intervals: s.buckets.map((b) => ({ ...b, gmv: money(b.gmv, s.currency) })),
});
