import { z } from 'zod';
import { httpLink } from '../../core/links';
import { CURRENCIES, fitsJsonNumber, parseMoney } from '../../core/money';
import { cursorPageInput, sortInput } from '../../core/page';
import { DEPOSIT_STATE_NAMES } from './trading.entity';

/** The inputs of the trading operations. Ids named by a path or by the edge are checked by the services themselves. */

/** Join a lot; a direct sale is joined with buyNow true. */
export const participateInput = z.object({
  lotId: z.unknown(),
  buyNow: z.boolean({ error: 'must be true or false' }).default(false),
});
export type ParticipateInput = z.input<typeof participateInput>;

/** A participant of a lot, by its account (a path's or the edge's ids). */
export const participantRef = z.object({ lotId: z.unknown(), accountId: z.string() });
export type ParticipantRef = z.input<typeof participantRef>;

/** Choose a lot's winner: a participant, optionally confirmed by its account id. */
export const chooseWinnerInput = z.object({
  lotId: z.unknown(),
  participantId: z.unknown(),
  buyNow: z.boolean({ error: 'must be true or false' }).default(false),
  accountId: z.string({ error: 'must be an account id' }).max(56).optional(),
  /** Needed to choose a winner whose highest bid is under the lot's reserve price. */
  acceptBelowReserve: z.boolean({ error: 'must be true or false' }).default(false),
});
export type ChooseWinnerInput = z.input<typeof chooseWinnerInput>;

export const CLOSE_STATES = ['sold', 'finished'] as const;

/** Close a lot as sold or finished. */
export const closeLotInput = z.object({
  lotId: z.unknown(),
  state: z.string().pipe(z.enum(CLOSE_STATES, { error: 'must be sold or finished' })),
});
export type CloseLotInput = z.input<typeof closeLotInput>;

export const DEPOSIT_MOVES = ['paid', 'returned'] as const;

/** Mark a deposit paid or returned. */
export const depositStateInput = z.object({
  id: z.unknown(),
  state: z.string().pipe(z.enum(DEPOSIT_MOVES, { error: 'must be paid or returned' })),
});
export type DepositStateInput = z.input<typeof depositStateInput>;

/** At most `n` symbols (code points, as PostgreSQL counts varchar). */
const upTo = (n: number) => (s: string) => [...s].length <= n;

/**
 * A fee: a number (or price string) with at most two decimals, never negative; kept as a decimal.
 * REST answers it as a JSON number, so it has at most the digits a JSON number carries exactly:
 * a longer string would come back as another amount.
 */
const fee = z
  .union([z.number(), z.string()], { error: 'must be a number with at most two decimals' })
  .transform((v, ctx) => {
    const money = parseMoney(v);
    if (money === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a non-negative number with at most two decimals' });
      return z.NEVER;
    }
    if (!fitsJsonNumber(money)) {
      ctx.addIssue({ code: 'custom', message: 'must have at most 15 digits: it is answered as a JSON number' });
      return z.NEVER;
    }
    return money;
  });

/** A lot's winner details to record: an absent field keeps its value, null clears it. */
export const winnerDetailsInput = z.object({
  lotId: z.unknown(),
  invoiceId: z.string().min(1, 'must not be empty').refine(upTo(100), 'must be at most 100 characters').nullable().optional(),
  invoicePaid: z.boolean({ error: 'must be true or false' }).nullable().optional(),
  dealCanceled: z.boolean({ error: 'must be true or false' }).nullable().optional(),
  containerId: z.string().refine(upTo(100), 'must be at most 100 characters').nullable().optional(),
  serviceLink: httpLink(2000).nullable().optional(),
  feeAmount: fee.nullable().optional(),
  transportationFee: fee.nullable().optional(),
  feeCurrency: z.enum(CURRENCIES, { error: `must be one of ${CURRENCIES.join(', ')}` }).nullable().optional(),
});
export type WinnerDetailsInput = z.input<typeof winnerDetailsInput>;
export type WinnerDetailsChanges = z.output<typeof winnerDetailsInput>;
export const WINNER_DETAILS_FIELDS = ['invoiceId', 'invoicePaid', 'dealCanceled', 'containerId', 'serviceLink', 'feeAmount', 'transportationFee', 'feeCurrency'] as const;

export const DEPOSIT_STATE_VALUES = Object.values(DEPOSIT_STATE_NAMES) as [string, ...string[]];
export const DEPOSIT_STATE_CODES: Record<string, number> = Object.fromEntries(Object.entries(DEPOSIT_STATE_NAMES).map(([code, name]) => [name, Number(code)]));

/** A page of deposits: filtered by state names and lot, newest first by default. */
export const depositPageInput = z.object({
  filter: z
    .object({
      state: z.array(z.enum(DEPOSIT_STATE_VALUES, { error: `must be one of ${DEPOSIT_STATE_VALUES.join(', ')}` })).min(1).optional(),
      lotId: z
        .union([z.number().int(), z.string().regex(/^-?\d{1,15}$/)], { error: 'must be an integer' })
        .transform(Number)
        .optional(),
    })
    .prefault({}),
  sort: sortInput(['created_at'], { key: 'created_at', desc: true }),
  page: cursorPageInput,
  /** Load each deposit's participant too. */
  withParticipants: z.boolean().default(false),
});
export type DepositPageInput = z.input<typeof depositPageInput>;
export type DepositPage = z.output<typeof depositPageInput>;
