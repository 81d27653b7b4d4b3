import { invalid } from '../../core/errors';
import { LOT_STATE_NAMES, LOT_TYPE_NAMES } from './lots.entity';
import type { LotFilter } from './lots.filter';
import type { DateTimeRangeInput, LotFilterInput } from './lots.types';

/**
 * GraphQL's typed fields of LotFilter (enums, date-times), each the twin of a domain filter that
 * it is given to in the domain's own terms, so that the two mean one thing. Old and new are
 * deprecated and current spellings of one filter: giving both is refused, naming the new one.
 */
export const LOT_FILTER_TWINS = {
  states: 'lotState',
  types: 'lotType',
  priceCurrency: 'currency',
  startsFrom: 'startTime',
  startTimeBetween: 'timePeriod',
} as const satisfies Record<string, keyof LotFilter>;

type Twin = keyof typeof LOT_FILTER_TWINS;

const seconds = (time: Date | undefined | null) => (time === undefined || time === null ? null : Math.floor(time.getTime() / 1000));
const period = (range: DateTimeRangeInput) => ({ min: seconds(range.from) ?? undefined, max: seconds(range.to) ?? undefined });

const TO_DOMAIN: { [T in Twin]: (value: NonNullable<LotFilterInput[T]>) => unknown } = {
  states: (codes) => codes.map((code) => LOT_STATE_NAMES[code]),
  types: (codes) => codes.map((code) => LOT_TYPE_NAMES[code]),
  priceCurrency: (currency) => currency,
  startsFrom: (time) => seconds(time),
  startTimeBetween: period,
};

/** The domain's filter of a GraphQL LotFilter: each typed field given under its twin's name. */
export function lotFilterOf(input: LotFilterInput | undefined | null): Record<string, unknown> | undefined {
  if (!input) return undefined;
  const filter: Record<string, unknown> = { ...input };
  for (const twin of Object.keys(LOT_FILTER_TWINS) as Twin[]) {
    const value = input[twin];
    delete filter[twin];
    if (value === undefined || value === null) continue;
    const old = LOT_FILTER_TWINS[twin];
    if (input[old] !== undefined && input[old] !== null) throw invalid('invalid_parameter', `give ${old} or ${twin}, not both`, { field: `filter.${twin}` });
    filter[old] = (TO_DOMAIN[twin] as (v: unknown) => unknown)(value);
  }
  return filter;
}
