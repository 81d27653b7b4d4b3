import type { AppModule } from '../../app-modules';
import { Migration20261122050000Notifications } from './migrations/Migration20261122050000Notifications';
import { Migration20261122100000Jobs } from './migrations/Migration20261122100000Jobs';
import { Notification } from './notifications.entity';
import { NotificationsResolver } from './notifications.resolver';
import { notificationsRoutes } from './notifications.routes';
import { NotificationsService } from './notifications.service';

declare module '../../services' {
  interface Services {
    notifications: NotificationsService;
  }
}

export const notificationsModule: AppModule = {
  name: 'notifications',
  entities: [Notification],
  migrations: [
    { name: 'Migration20261122050000Notifications', class: Migration20261122050000Notifications },
    { name: 'Migration20261122100000Jobs', class: Migration20261122100000Jobs },
  ],
  services: {
    notifications: (s) => {
      const notifications = new NotificationsService();
      // Notifications committed in this process reach their subscribers on every instance.
      notifications.bus.subscribeAll((n) => s.live.publishNotification(n));
      return notifications;
    },
  },
  routes: notificationsRoutes,
  resolvers: [NotificationsResolver],
};
