import { z } from 'zod';
import { CURRENCIES } from '../../core/money';
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

/** A request and the currency to show its prices in (its own by default). */
export const getRequestInput = z.object({
  id: z.string(),
  currency: z
    .string()
    .nullish()
    .transform((c) => c ?? undefined),
});
export type GetRequestInput = z.input<typeof getRequestInput>;

export const requestRef = z.object({ id: z.string() });
export type RequestRef = z.input<typeof requestRef>;

/** A review of a pending request, quoting its hash. z.string() first: a missing member is `missing_field`. */
export const reviewInput = z.object({
  id: z.string(),
  hash: z.string().max(128),
  state: z.string().pipe(z.enum(REVIEW_STATES, { error: 'must be approved, rejected or permanently_rejected' })),
  rejectReason: z.string().max(2000).optional(),
});
export type ReviewInput = z.input<typeof reviewInput>;

/** A listing of create-lot requests: filtered, sorted (newest first by default), one number/size page. */
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

/** A listing of create-lot requests as a connection pages it: the filters, newest first. */
export const windowInput = listInput.omit({ sort: true, page: true, size: true });
export type RequestWindowInput = z.input<typeof windowInput>;
export type RequestFilterQuery = z.output<typeof windowInput>;

/** The requests an account filed (or, for a platform, must review). */
export type AccountRequestListInput = RequestListInput & { accountId: string };
export type AccountRequestWindowInput = RequestWindowInput & { accountId: string };
export type RequestListQuery = z.output<typeof listInput>;
