import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import { staffPlatforms } from '../../core/policies';
import { validateInput, type Untrusted } from '../../core/validate';
import { OutboxMessage } from './outbox.entity';
import { outboxQueryInput, type OutboxQueryInput } from './outbox.input';

const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The messages kept in the outbox: readable by staff of the recipient's
 * platform, newest first; anyone else, anonymous callers included, gets `forbidden`.
 */
export class OutboxService {
  async list(ctx: RequestContext, input: Untrusted<OutboxQueryInput>): Promise<OutboxMessage[]> {
    const platforms = ctx.caller ? staffPlatforms(ctx.caller) : [];
    if (!platforms.length) throw forbidden('forbidden', "only staff of the recipient's platform may read the outbox");
    const { recipient, limit } = validateInput(outboxQueryInput, input);
    return ctx.em.find(
      OutboxMessage,
      { platformId: { $in: platforms }, ...(recipient ? { recipient: { $ilike: likeLiteral(recipient) } } : {}) },
      { orderBy: { id: 'desc' }, limit: limit ?? 50 },
    );
  }
}
