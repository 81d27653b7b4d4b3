import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxChannel } from './outbox.entity';

export interface OutgoingMessage {
  channel: OutboxChannel;
  recipient: string;
  accountId: string | null;
  platformId: string | null;
  subject: string;
  body: string;
}

/** Where email and SMS go: SMTP when configured, else the outbox table (SMS always the table). */
export interface Outbox {
  send(em: EntityManager, message: OutgoingMessage): Promise<void>;
}
