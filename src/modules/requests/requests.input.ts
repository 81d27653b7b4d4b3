import { z } from 'zod';
import { CURRENCIES } from '../accounts/accounts.input';
import { REQUEST_STATE_NAMES, RequestState } from './requests.entity';

export const REQUEST_STATE_VALUES = Object.values(REQUEST_STATE_NAMES) as [string, ...string[]];
export const REQUEST_STATE_CODES: Record<string, RequestState> = Object.fromEntries(
  Object.entries(REQUEST_STATE_NAMES).map(([code, name]) => [name, Number(code) as RequestState]),
);
export const REQUEST_SORTS = ['created_at', 'updated_at'] as const;
export type RequestSortKey = (typeof REQUEST_SORTS)[number];
export const REQUEST_TYPES = ['lots'] as const;
export const DEFAULT_REQUEST_PAGE_SIZE = 15;
const MAX_PAGE_SIZE = 100;

/** A request id as it appears in paths: an integer-valued string. */
export const REQUEST_ID = /^\d{1,18}$/;

const REVIEW_STATES = ['approved', 'rejected', 'permanently_rejected'] as const;

/** PATCH /requests/{id} attributes (INTERFACE.md §4.8). z.string() first: a missing member is `missing_field`. */
export const reviewInput = z.object({
  hash: z.string().max(128),
  state: z.string().pipe(z.enum(REVIEW_STATES, { error: 'must be approved, rejected or permanently_rejected' })),
  reject_reason: z.string().max(2000).optional(),
});

/**
 * A listing of create-lot requests, as both edges hand it over (REST has already parsed the
 * query; GraphQL arguments are checked here).
 */
export const listInput = z.object({
  type: z.enum(REQUEST_TYPES, { error: 'must be lots' }).optional(),
  requestor: z.string().min(1).max(56).optional(),
  reviewer: z.string().min(1).max(56).optional(),
  state: z.array(z.enum(REQUEST_STATE_VALUES, { error: `must be one of ${REQUEST_STATE_VALUES.join(', ')}` })).min(1).optional(),
  archived: z.boolean().optional(),
  currency: z.enum(CURRENCIES).optional(),
  sort: z.object({ key: z.enum(REQUEST_SORTS), desc: z.boolean() }).default({ key: 'created_at', desc: true }),
  page: z.number().int().min(0).default(0),
  size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_REQUEST_PAGE_SIZE),
});
export type RequestListInput = z.input<typeof listInput>;
export type RequestListQuery = z.output<typeof listInput>;
