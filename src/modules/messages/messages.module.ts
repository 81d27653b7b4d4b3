import type { AppModule } from '../../app-modules';
import { Migration20261122070000Messages } from './migrations/Migration20261122070000Messages';
import { Message } from './messages.entity';
import { DialogFieldsResolver, LotMessagesResolver, MessageFieldsResolver } from './messages.fields.resolver';
import { DialogConnectionResolver, MessageConnectionResolver } from './messages.connection.types';
import { MessagesResolver } from './messages.resolver';
import { messagesRoutes } from './messages.routes';
import { MessagesService } from './messages.service';

declare module '../../services' {
  interface Services {
    messages: MessagesService;
  }
}

export const messagesModule: AppModule = {
  name: 'messages',
  entities: [Message],
  migrations: [{ name: 'Migration20261122070000Messages', class: Migration20261122070000Messages }],
  services: { messages: (s) => new MessagesService(s.notifications) },
  routes: messagesRoutes,
  resolvers: [MessagesResolver, MessageFieldsResolver, DialogFieldsResolver, LotMessagesResolver, MessageConnectionResolver, DialogConnectionResolver],
};
