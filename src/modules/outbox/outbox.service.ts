import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import { integerId } from '../../core/ids';
import { staffPlatforms } from '../../core/policies';
import { validateInput, type Untrusted } from '../../core/validate';
import { listBound } from '../../core/page';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { sql } from '../../db/sql';
import { windowOf } from '../../db/window';
import { OutboxMessage } from './outbox.entity';
import { outboxQueryInput, type OutboxQueryInput } from './outbox.input';

const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The messages kept in the outbox: readable by staff of the recipient's
 * platform, newest first; anyone else, anonymous callers included, gets `forbidden`.
 */
export class OutboxService {
  async list(ctx: RequestContext, input: Untrusted<OutboxQueryInput>): Promise<OutboxMessage[]> {
    const platforms = this.staffPlatforms(ctx);
    const { recipient, limit } = validateInput(outboxQueryInput, input);
    return ctx.em.find(
      OutboxMessage,
      { platformId: { $in: platforms }, ...(recipient ? { recipient: { $ilike: likeLiteral(recipient) } } : {}) },
      { orderBy: { id: 'desc' }, limit: limit ?? 50 },
    );
  }

  /** `outboxConnection`: the messages `list` finds, newest first, one window paged in the database. */
  async window(ctx: RequestContext, input: Untrusted<Omit<OutboxQueryInput, 'limit'>>, window: ListWindow): Promise<WindowPage<OutboxMessage>> {
    const platforms = this.staffPlatforms(ctx);
    const { recipient } = validateInput(outboxQueryInput.omit({ limit: true }), input);
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const where = [sql`o.platform_id in (${sql.list(platforms)})`, ...(recipient ? [sql`o.recipient ilike ${likeLiteral(recipient)}`] : [])];
    const page = await windowOf<Record<string, unknown>>(ctx.em, { columns: sql`o.*`, from: sql`outbox_messages o`, where: sql.and(where), order: { key: null, id: sql`o.id` } }, window);
    return { ...page, items: page.items.map((row) => ctx.em.map(OutboxMessage, row)) };
  }

  /**
   * Messages by id (`node(id:)`), those `list` would find for the caller: to staff of their
   * platforms. Any other id is absent, as one of no message, for anyone else too.
   */
  async visibleByIds(ctx: RequestContext, ids: readonly string[]): Promise<OutboxMessage[]> {
    const platforms = ctx.caller ? staffPlatforms(ctx.caller) : [];
    const keys = ids.map(integerId).filter((key): key is string => key !== null);
    if (!platforms.length || !keys.length) return [];
    return ctx.em.find(OutboxMessage, { id: { $in: keys }, platformId: { $in: platforms } });
  }

  private staffPlatforms(ctx: RequestContext): string[] {
    const platforms = ctx.caller ? staffPlatforms(ctx.caller) : [];
    if (!platforms.length) throw forbidden('forbidden', "only staff of the recipient's platform may read the outbox");
    return platforms;
  }
}
