import { z } from 'zod';
import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import { staffPlatforms } from '../../core/policies';
import { validateAttributes } from '../../core/validate';
import { OutboxMessage } from './outbox.entity';

const queryInput = z.object({
  recipient: z.string().trim().min(1).max(254).optional(),
  limit: z.number().int().min(1).max(100).optional(),
});

const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The messages kept in the outbox (PROTOCOL.md §9): readable by staff of the recipient's
 * platform, newest first; anyone else, anonymous callers included, gets `forbidden`.
 */
export class OutboxService {
  async list(ctx: RequestContext, query: { recipient?: string | null; limit?: number | null }): Promise<OutboxMessage[]> {
    const platforms = ctx.caller ? staffPlatforms(ctx.caller) : [];
    if (!platforms.length) throw forbidden('forbidden', "only staff of the recipient's platform may read the outbox");
    const { recipient, limit } = validateAttributes(queryInput, {
      ...(query.recipient != null ? { recipient: query.recipient } : {}),
      ...(query.limit != null ? { limit: query.limit } : {}),
    });
    return ctx.em.find(
      OutboxMessage,
      { platformId: { $in: platforms }, ...(recipient ? { recipient: { $ilike: likeLiteral(recipient) } } : {}) },
      { orderBy: { id: 'desc' }, limit: limit ?? 50 },
    );
  }
}
