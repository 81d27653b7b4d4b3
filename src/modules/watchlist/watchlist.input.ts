import { z } from 'zod';

/** A lot of an account's watchlist; the lot id is checked by the service (missing, malformed, unknown). */
export const starInput = z.object({ accountId: z.string(), lotId: z.unknown() });
export type StarInput = z.input<typeof starInput>;

export const watchlistInput = z.object({ accountId: z.string(), limit: z.number().optional() });
export type WatchlistInput = z.input<typeof watchlistInput>;

/** The caller's callback request about a lot. */
export const callbackRequestInput = z.object({ lotId: z.unknown() });
export type CallbackRequestInput = z.input<typeof callbackRequestInput>;

/** An account's callback request about a lot. */
export const callbackInput = z.object({ lotId: z.unknown(), accountId: z.string() });
export type CallbackInput = z.input<typeof callbackInput>;
