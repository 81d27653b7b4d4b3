import type { AppModule } from '../../app-modules';
import { BlacklistEntryConnectionResolver } from './blacklist.connection.types';
import { BlacklistResolver } from './blacklist.resolver';
import { blacklistRoutes } from './blacklist.routes';
import { BlacklistService } from './blacklist.service';

declare module '../../services' {
  interface Services {
    blacklist: BlacklistService;
  }
}

export const blacklistModule: AppModule = {
  name: 'blacklist',
  services: { blacklist: (s) => new BlacklistService(s.live) },
  routes: blacklistRoutes,
  resolvers: [BlacklistResolver, BlacklistEntryConnectionResolver],
};
