import type { EventManager, EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { loggable } from '../../core/loggable';
import type { Logger } from '../../core/logger';
import type { Outbox, OutgoingMessage } from './outbox.port';

/** The part of a nodemailer transport this adapter uses. */
export interface Mailer {
  sendMail(mail: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
}

/** The outermost transaction of a (possibly nested) MikroORM transaction context. */
function rootOf(context: unknown): object | null {
  let trx = (context ?? null) as { parentTransaction?: unknown } | null;
  while (trx?.parentTransaction) trx = trx.parentTransaction as { parentTransaction?: unknown };
  return trx;
}

/**
 * Email through SMTP (`SMTP_URL`); SMS still to the outbox table. A message sent inside a
 * transaction leaves only once that transaction commits (and never when it rolls back), so no
 * one receives a token that the database does not hold, and no transaction waits on the mail
 * server. A failed delivery is logged, never answered: the client can ask for a resend.
 */
export class SmtpOutbox implements Outbox, EventSubscriber {
  private readonly mailer: Mailer;
  private readonly pending = new WeakMap<object, OutgoingMessage[]>();
  private readonly subscribed = new WeakSet<EventManager>();

  constructor(
    url: string | Mailer,
    private readonly from: string,
    private readonly sms: Outbox,
    private readonly log: Logger,
  ) {
    this.mailer =
      typeof url === 'string'
        ? // nodemailer (some 40 modules) is loaded by the processes that send mail only.
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          (require('nodemailer') as typeof import('nodemailer')).createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 })
        : url;
  }

  async send(em: EntityManager, message: OutgoingMessage): Promise<void> {
    if (message.channel !== 'email') return this.sms.send(em, message);
    const transaction = rootOf(em.getTransactionContext());
    if (!transaction) return this.deliver(message);
    const events = em.getEventManager();
    if (!this.subscribed.has(events)) {
      events.registerSubscriber(this);
      this.subscribed.add(events);
    }
    this.pending.set(transaction, [...(this.pending.get(transaction) ?? []), message]);
  }

  async afterTransactionCommit({ transaction }: TransactionEventArgs): Promise<void> {
    const messages = transaction ? this.pending.get(transaction) : undefined;
    if (!messages) return;
    this.pending.delete(transaction as object);
    for (const message of messages) await this.deliver(message);
  }

  afterTransactionRollback({ transaction }: TransactionEventArgs): void {
    if (transaction) this.pending.delete(transaction);
  }

  private async deliver(message: OutgoingMessage): Promise<void> {
    const about = { channel: message.channel, accountId: message.accountId, subject: message.subject };
    try {
      await this.mailer.sendMail({ from: this.from, to: message.recipient, subject: message.subject, text: message.body });
      this.log.info(about, 'email sent');
    } catch (err) {
      this.log.error({ ...about, err: loggable(err) }, 'sending email failed');
    }
  }
}
