import type { FilterKind } from '../../core/filter-kinds';
import { ACCOUNT_ID } from '../../core/ids';
import { CURRENCIES } from '../../core/money';
import { FUEL_IDS } from '../reference';

const LOT_TYPE_VALUES = ['no_auction', 'eng', 'partnerA', 'partnerB'] as const;
const LOT_STATE_VALUES = ['pending', 'sold', 'finished'] as const;
const FUEL_VALUES = ['cng', 'convertible', 'diesel', 'electric', 'gas', 'plugin_hybrid', 'hybrid', 'hydrogen', 'flexible', 'lpg'] as const;
const ACCOUNT_TYPE_VALUES = ['user', 'admin', 'broker', 'platform'] as const;
export const PARTNER_A_STATUS_VALUES = ['approval', 'pure', 'min'] as const;
const WHEEL_VALUES = ['left', 'right'] as const;
const TAB_VALUES = ['won', 'lost'] as const;

const LOT_ID = /^\d{1,18}$/;
const VIN = /^[A-Za-z0-9]{1,32}$/;

const text = (max: number) => ({ kind: 'string', max }) as const;
const account = text(56);
const accounts = { kind: 'list', item: ACCOUNT_ID } as const;
const integer = { kind: 'integer' } as const;
const flag = { kind: 'boolean' } as const;
const range = <T extends 'integer' | 'decimal'>(of: T) => ({ kind: 'range', of }) as const;
/** Vocabulary filters match in any letter case, and by the aliases given. */
const oneOf = (values: readonly string[], aliases?: Readonly<Record<string, string>>) => ({ kind: 'enum', values, anyCase: true, aliases }) as const;
const anyOf = (values: readonly string[], aliases?: Readonly<Record<string, string>>) => ({ kind: 'list', values, anyCase: true, aliases }) as const;

/**
 * Every filter of the lot index by its domain name: the
 * domain's input schema and the REST query are both made from it.
 */
export const LOT_FILTER_KINDS = {
  country: text(3),
  city: text(100),
  starsOf: account,
  in: { kind: 'list', item: LOT_ID },
  vin: { kind: 'list', item: VIN },
  organizerType: oneOf(ACCOUNT_TYPE_VALUES),
  lotType: anyOf(LOT_TYPE_VALUES),
  lotState: anyOf(LOT_STATE_VALUES),
  participant: account,
  winner: account,
  notWinner: account,
  wheel: oneOf(WHEEL_VALUES),
  year: range('integer'),
  engineVolume: range('decimal'),
  currency: oneOf(CURRENCIES),
  price: range('decimal'),
  transmission: text(30),
  fuel: anyOf(FUEL_VALUES, FUEL_IDS),
  maker: text(100),
  model: text(100),
  modelPrefix: text(100),
  startTime: integer,
  trimPartnerA: integer,
  trimPartnerB: integer,
  timePeriod: range('integer'),
  yardNumber: integer,
  partnerAStatus: anyOf(PARTNER_A_STATUS_VALUES),
  registered: flag,
  deposit: flag,
  hasWinner: flag,
  hasCallbacks: flag,
  hasRequests: flag,
  hasParticipants: flag,
  hasParticipantsFrom: accounts,
  isFinished: flag,
  buyNow: flag,
  search: text(100),
  publisher: accounts,
  directSalePublisher: accounts,
  organizer: account,
  winnerAccountType: oneOf(ACCOUNT_TYPE_VALUES),
  invoiceSent: flag,
  invoicePaid: flag,
  tab: oneOf(TAB_VALUES),
} as const satisfies Record<string, FilterKind>;
