import type { QuerySpec } from '../../rest/query';
import { CURRENCIES } from '../accounts/accounts.input';
import { FUEL_IDS } from '../reference/reference.service';
import { LOT_INCLUDES } from './lots.includes.presenter';
import { ACCOUNT_ID, ACCOUNT_TYPE_VALUES, FUEL_VALUES, LOT_ID, LOT_SORTS, LOT_STATE_VALUES, LOT_TYPE_VALUES, PARTNER_A_STATUS_VALUES, TAB_VALUES, VIN, WHEEL_VALUES } from './lots.filter';

const account = { kind: 'string', max: 56 } as const;
const accounts = { kind: 'list', item: ACCOUNT_ID } as const;
const flag = { kind: 'boolean' } as const;
/** Vocabulary filters match in any letter case (PROTOCOL.md §9), and by the aliases given. */
const oneOf = (values: readonly string[], aliases?: Record<string, string>) => ({ kind: 'enum', values, anyCase: true, aliases }) as const;
const anyOf = (values: readonly string[], aliases?: Record<string, string>) => ({ kind: 'list', values, anyCase: true, aliases }) as const;

/** The query of GET /lots and GET /lots/count (PROTOCOL.md §2); the service holds the same filters to the same rules. */
export const LOT_FILTERS: NonNullable<QuerySpec['filters']> = {
  country: { kind: 'string', max: 3 },
  city: { kind: 'string', max: 100 },
  stars_of: account,
  in: { kind: 'list', item: LOT_ID },
  vin: { kind: 'list', item: VIN },
  organizer_type: oneOf(ACCOUNT_TYPE_VALUES),
  lot_type: anyOf(LOT_TYPE_VALUES),
  lot_state: anyOf(LOT_STATE_VALUES),
  participant: account,
  winner: account,
  not_winner: account,
  wheel: oneOf(WHEEL_VALUES),
  year: { kind: 'range', of: 'integer' },
  engine_volume: { kind: 'range', of: 'decimal' },
  currency: oneOf(CURRENCIES),
  price: { kind: 'range', of: 'decimal' },
  transmission: { kind: 'string', max: 30 },
  fuel: anyOf(FUEL_VALUES, FUEL_IDS),
  maker: { kind: 'string', max: 100 },
  model: { kind: 'string', max: 100 },
  model_prefix: { kind: 'string', max: 100 },
  start_time: { kind: 'integer' },
  trim_partnerA: { kind: 'integer' },
  trim_partnerB: { kind: 'integer' },
  time_period: { kind: 'range', of: 'integer' },
  yard_number: { kind: 'integer' },
  partnerA_status: anyOf(PARTNER_A_STATUS_VALUES),
  registered: flag,
  deposit: flag,
  has_winner: flag,
  has_callbacks: flag,
  has_requests: flag,
  has_participants: flag,
  has_participants_from: accounts,
  is_finished: flag,
  buy_now: flag,
  search: { kind: 'string', max: 100 },
  publisher: accounts,
  direct_sale_publisher: accounts,
  organizer: account,
  winner_account_type: oneOf(ACCOUNT_TYPE_VALUES),
  invoice_sent: flag,
  invoice_paid: flag,
  tab: oneOf(TAB_VALUES),
};

export const LOT_INDEX_QUERY: QuerySpec = {
  filters: LOT_FILTERS,
  sorts: LOT_SORTS,
  defaultSort: '-start_time',
  includes: LOT_INCLUDES,
  page: 'cursor',
};

export const LOT_COUNT_QUERY: QuerySpec = { filters: LOT_FILTERS };

export const LOT_GET_QUERY: QuerySpec = {
  plain: { currency: { kind: 'enum', values: CURRENCIES } },
  includes: LOT_INCLUDES,
};
