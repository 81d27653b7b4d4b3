import type { AppModule } from '../../app-modules';
import { OutboxMessage } from './outbox.entity';
import type { Outbox } from './outbox.port';
import { OutboxMessageConnectionResolver } from './outbox.connection.types';
import { OutboxResolver } from './outbox.resolver';
import { OutboxService } from './outbox.service';
import { SmtpOutbox } from './outbox.smtp';
import { TableOutbox } from './outbox.table';

declare module '../../services' {
  interface Services {
    outbox: OutboxService;
    /** Where the service's emails go: the outbox table, or SMTP with the table as its record. */
    mail: Outbox;
  }
}

export const outboxModule: AppModule = {
  name: 'outbox',
  entities: [OutboxMessage],
  services: {
    outbox: () => new OutboxService(),
    mail: (_, { config, log }) => {
      const table = new TableOutbox(log);
      return config.SMTP_URL ? new SmtpOutbox(config.SMTP_URL, config.SMTP_FROM, table, log) : table;
    },
  },
  resolvers: [OutboxResolver, OutboxMessageConnectionResolver],
};
