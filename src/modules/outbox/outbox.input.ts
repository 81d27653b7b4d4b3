import { z } from 'zod';

/** The outbox's messages to `recipient` (case-insensitive), at most `limit`. */
export const outboxQueryInput = z.object({
  recipient: z.string().trim().min(1).max(254).optional(),
  limit: z.number().int().min(1).max(100).optional(),
});
export type OutboxQueryInput = z.input<typeof outboxQueryInput>;
