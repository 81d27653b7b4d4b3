import { z } from 'zod';
import { integerId } from '../../core/ids';

export const ACCOUNT_ID = /^G[A-Z2-7]{55}$/;
/** Longest message text, in characters (Unicode code points); the table checks the same. */
export const MAX_MESSAGE_LENGTH = 4000;
export const MESSAGE_SORTS = ['created_at'] as const;
export const DEFAULT_MESSAGE_PAGE_SIZE = 15;
const MAX_PAGE_SIZE = 100;
const MAX_LISTED = 100;
export const MAX_SEARCH_LENGTH = 200;

const accountId = z.string().regex(ACCOUNT_ID, 'must be an account id (G…)');
const accountIds = z.array(accountId).min(1).max(MAX_LISTED);

/** An integer id given as a JSON integer or an integer-valued string; the output is the string. */
const integer = (what: string) =>
  z.union([z.number(), z.string()], { error: `must be ${what} (an integer)` }).transform((value, ctx) => {
    const id = integerId(value);
    if (id === null) {
      ctx.addIssue({ code: 'custom', message: `must be ${what} (an integer)` });
      return z.NEVER;
    }
    return id;
  });

const text = z
  .string()
  .refine((t) => t.trim().length > 0, 'must not be empty')
  .refine((t) => [...t].length <= MAX_MESSAGE_LENGTH, `must be at most ${MAX_MESSAGE_LENGTH} characters`)
  .refine((t) => !t.includes('\u0000'), 'must not contain NUL characters');

/** POST /messages attributes (INTERFACE.md §4.7). */
export const sendInput = z.object({
  sender: accountId,
  receiver: accountId,
  lot_id: integer('a lot id'),
  text,
  ref_message_id: integer('a message id').nullish(),
});

/** PATCH /accounts/{id}/messages/ attributes: `receiver` defaults to the path's account. */
export const markReadInput = z.object({
  receiver: accountId.optional(),
  sender: accountId,
  lot_id: integer('a lot id'),
});

/** GET /lots/{id}/messages, as both edges hand it over (REST has parsed the query already). */
export const listInput = z.object({
  receivers: accountIds.optional(),
  sender: accountId.optional(),
  lot_id: integer('a lot id').optional(),
  platform: accountIds.optional(),
  search: z.string().min(1).max(MAX_SEARCH_LENGTH).optional(),
  sort: z.object({ key: z.enum(MESSAGE_SORTS), desc: z.boolean() }).default({ key: 'created_at', desc: true }),
  page: z.number().int().min(0).default(0),
  size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_MESSAGE_PAGE_SIZE),
});
export type MessageListInput = z.input<typeof listInput>;
export type MessageListQuery = z.output<typeof listInput>;

/** GET /messages/dialogs: the dialogs of `receivers` (the caller by default). */
export const dialogsInput = z.object({
  receivers: accountIds.optional(),
  with: accountId.optional(),
  lot_id: integer('a lot id').optional(),
});
export type DialogsInput = z.input<typeof dialogsInput>;
export type DialogsQuery = z.output<typeof dialogsInput>;

/** GET /messages/unread: `receiver` defaults to the caller; `platform` is the senders' platform. */
export const unreadInput = z.object({
  receiver: accountId.optional(),
  sender: accountId.optional(),
  lot_id: integer('a lot id').optional(),
  platform: accountIds.optional(),
});
export type UnreadInput = z.input<typeof unreadInput>;
export type UnreadQuery = z.output<typeof unreadInput>;
