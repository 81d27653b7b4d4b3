import { z } from 'zod';
import { parseMoney } from '../../core/money';
import { CURRENCIES } from '../accounts/accounts.input';
import { DEPOSIT_STATE_NAMES } from './trading.entity';

/** The attributes of the trading request documents (INTERFACE.md §2.6, §4.5, §4.6), shared by both edges. */

const integerId = z
  .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,18}$/)], { error: 'must be an integer' })
  .transform(String);

/** POST /lots/{id}/participation_requests. */
export const participationInput = z.object({
  lot_id: integerId.optional(),
  buy_now: z.boolean({ error: 'must be true or false' }).default(false),
});

/** POST /v2/lots/{id}/winners. */
export const winnerInput = z.object({
  buy_now: z.boolean({ error: 'must be true or false' }).default(false),
  account_id: z.string({ error: 'must be an account id' }).max(56).optional(),
});

export const CLOSE_STATES = ['sold', 'finished'] as const;

/** POST /lots/closed. */
export const closeInput = z.object({
  state: z.string().pipe(z.enum(CLOSE_STATES, { error: 'must be sold or finished' })),
});

export const DEPOSIT_MOVES = ['paid', 'returned'] as const;

/** PATCH /deposits/{id}. */
export const depositStateInput = z.object({
  state: z.string().pipe(z.enum(DEPOSIT_MOVES, { error: 'must be paid or returned' })),
});

/** At most `n` symbols (code points, as PostgreSQL counts varchar). */
const upTo = (n: number) => (s: string) => [...s].length <= n;

/** A fee: a number (or price string) with at most two decimals, never negative; kept as a decimal. */
const fee = z
  .union([z.number(), z.string()], { error: 'must be a number with at most two decimals' })
  .transform((v, ctx) => {
    const money = parseMoney(v);
    if (money === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a non-negative number with at most two decimals' });
      return z.NEVER;
    }
    return money;
  });

/**
 * PUT /lots/{id}/winner_details: every attribute is optional; an absent one keeps its value,
 * null clears it.
 */
export const winnerDetailsInput = z.object({
  invoice_id: z.string().min(1, 'must not be empty').refine(upTo(100), 'must be at most 100 characters').nullable().optional(),
  invoice_paid: z.boolean({ error: 'must be true or false' }).nullable().optional(),
  deal_canceled: z.boolean({ error: 'must be true or false' }).nullable().optional(),
  container_id: z.string().refine(upTo(100), 'must be at most 100 characters').nullable().optional(),
  service_link: z.string().max(2000).nullable().optional(),
  fee_amount: fee.nullable().optional(),
  transportation_fee: fee.nullable().optional(),
  fee_currency: z.enum(CURRENCIES, { error: `must be one of ${CURRENCIES.join(', ')}` }).nullable().optional(),
});
export type WinnerDetailsAttributes = z.infer<typeof winnerDetailsInput>;

export const DEPOSIT_STATE_VALUES = Object.values(DEPOSIT_STATE_NAMES);
export const DEPOSIT_STATE_CODES: Record<string, number> = Object.fromEntries(Object.entries(DEPOSIT_STATE_NAMES).map(([code, name]) => [name, Number(code)]));
