import { z } from 'zod';
import { ACCOUNT_ID, integerId } from '../../core/ids';

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

/** POST /messages. */
export const sendInput = z.object({
  sender: accountId,
  receiver: accountId,
  lotId: integer('a lot id'),
  text,
  refMessageId: integer('a message id').nullish(),
});
export type SendMessageInput = z.input<typeof sendInput>;

/** PATCH /accounts/{id}/messages/: `receiver` defaults to `accountId`, the account whose messages are marked. */
export const markReadInput = z.object({
  accountId: z.string(),
  receiver: accountId.optional(),
  sender: accountId,
  lotId: integer('a lot id'),
});
export type MarkReadInput = z.input<typeof markReadInput>;

/** GET /lots/{id}/messages: the messages about `lotId` that match; `lotIdFilter` restates the lot (another one matches nothing). */
export const listInput = z.object({
  lotId: z.string(),
  receivers: accountIds.optional(),
  sender: accountId.optional(),
  lotIdFilter: integer('a lot id').optional(),
  platform: accountIds.optional(),
  search: z.string().min(1).max(MAX_SEARCH_LENGTH).optional(),
  sort: z.object({ key: z.enum(MESSAGE_SORTS), desc: z.boolean() }).default({ key: 'created_at', desc: true }),
  page: z.number().int().min(0).default(0),
  size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_MESSAGE_PAGE_SIZE),
});
export type MessageListInput = z.input<typeof listInput>;
/** A lot's messages as a connection pages them: the filters, newest first. */
export const windowInput = listInput.omit({ sort: true, page: true, size: true });
export type MessageWindowInput = z.input<typeof windowInput>;
export type MessageFilterQuery = Omit<z.output<typeof windowInput>, 'lotId' | 'lotIdFilter'> & { lotId?: string };
/** A listing as the statements take it: `lotId` is the filter's. */
export type MessageListQuery = Omit<z.output<typeof listInput>, 'lotId' | 'lotIdFilter'> & { lotId?: string };

/** GET /messages/dialogs: the dialogs of `receivers` (the caller by default). */
export const dialogsInput = z.object({
  receivers: accountIds.optional(),
  with: accountId.optional(),
  lotId: integer('a lot id').optional(),
});
export type DialogsInput = z.input<typeof dialogsInput>;
export type DialogsQuery = z.output<typeof dialogsInput>;

/** GET /messages/unread: `receiver` defaults to the caller; `platform` is the senders' platform. */
export const unreadInput = z.object({
  receiver: accountId.optional(),
  sender: accountId.optional(),
  lotId: integer('a lot id').optional(),
  platform: accountIds.optional(),
});
export type UnreadInput = z.input<typeof unreadInput>;
export type UnreadQuery = z.output<typeof unreadInput>;
