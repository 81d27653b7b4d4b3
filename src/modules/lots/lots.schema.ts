import { allToWire, wireName } from '../../rest/fields';
import type { QuerySpec } from '../../rest/query';
import { CURRENCIES } from '../../core/money';
import { LOT_GROUPS } from './lots.aggregate';
import { LOT_SORTS } from './lots.filter';
import { LOT_FILTER_KINDS } from './lots.filter.table';
import { LOT_RELATIONS } from './lots.relations';

/** The `include` names of the lot endpoints: the relations of a lot as the wire spells them. */
const LOT_INCLUDES = LOT_RELATIONS.map(wireName);

/** The filters of GET /lots and GET /lots/count (docs/rest.md, "Query parameters"): the domain's, under their wire names. */
export const LOT_FILTERS: NonNullable<QuerySpec['filters']> = allToWire(LOT_FILTER_KINDS);

export const LOT_INDEX_QUERY: QuerySpec = {
  filters: LOT_FILTERS,
  sorts: LOT_SORTS,
  defaultSort: '-start_time',
  includes: LOT_INCLUDES,
  page: 'cursor',
};

export const LOT_COUNT_QUERY: QuerySpec = { filters: LOT_FILTERS };

/** GET /lots/aggregate: the filters of GET /lots, the currency of the sums, and what to group by. */
export const LOT_AGGREGATE_QUERY: QuerySpec = {
  filters: LOT_FILTERS,
  plain: { currency: { kind: 'enum', values: CURRENCIES }, group_by: { kind: 'enum', values: LOT_GROUPS } },
};

export const LOT_GET_QUERY: QuerySpec = {
  plain: { currency: { kind: 'enum', values: CURRENCIES } },
  includes: LOT_INCLUDES,
};
