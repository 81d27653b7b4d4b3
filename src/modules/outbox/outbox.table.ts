import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../core/logger';
import { OutboxMessage } from './outbox.entity';
import type { Outbox, OutgoingMessage } from './outbox.port';

/** Keeps messages in the outbox table, in the caller's transaction, and logs that they are there. */
export class TableOutbox implements Outbox {
  constructor(private readonly log: Logger) {}

  async send(em: EntityManager, message: OutgoingMessage): Promise<void> {
    em.persist(em.create(OutboxMessage, message));
    this.log.info({ channel: message.channel, accountId: message.accountId, subject: message.subject }, 'message kept in the outbox');
  }
}
