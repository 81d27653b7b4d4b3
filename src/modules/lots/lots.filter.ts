import type { Money } from '../../core/money';
import type { Range } from '../../rest/query';

/** Every filter of the lot index (INTERFACE.md §4.5, PROTOCOL.md §9), shared by REST and GraphQL. */
export interface LotFilter {
  country?: string;
  city?: string;
  stars_of?: string;
  in?: string[];
  vin?: string[];
  organizer_type?: string;
  lot_type?: string[];
  lot_state?: string[];
  participant?: string;
  winner?: string;
  not_winner?: string;
  wheel?: string;
  year?: Range<number>;
  engine_volume?: Range<Money>;
  currency?: string;
  price?: Range<Money>;
  transmission?: string;
  fuel?: string[];
  maker?: string;
  model?: string;
  model_prefix?: string;
  start_time?: number;
  trim_partnerA?: number;
  trim_partnerB?: number;
  time_period?: Range<number>;
  yard_number?: number;
  partnerA_status?: string[];
  registered?: boolean;
  deposit?: boolean;
  has_winner?: boolean;
  has_callbacks?: boolean;
  has_requests?: boolean;
  has_participants?: boolean;
  has_participants_from?: string[];
  is_finished?: boolean;
  buy_now?: boolean;
  search?: string;
  publisher?: string[];
  direct_sale_publisher?: string[];
  organizer?: string;
  winner_account_type?: string;
  invoice_sent?: boolean;
  invoice_paid?: boolean;
  tab?: 'won' | 'lost';
}

export const LOT_SORTS = ['start_time', 'time_left', 'price', 'buy_now_price', 'created_at', 'updated_at'] as const;
export type LotSortKey = (typeof LOT_SORTS)[number];

export const LOT_TYPE_VALUES = ['no_auction', 'eng', 'partnerA', 'partnerB'] as const;
export const LOT_STATE_VALUES = ['pending', 'sold', 'finished'] as const;
export const FUEL_VALUES = ['cng', 'convertible', 'diesel', 'electric', 'gas', 'plugin_hybrid', 'hybrid', 'hydrogen', 'flexible', 'lpg'] as const;
export const ACCOUNT_TYPE_VALUES = ['user', 'admin', 'broker', 'platform'] as const;
export const PARTNER_A_STATUS_VALUES = ['approval', 'pure', 'min'] as const;
