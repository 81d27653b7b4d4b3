import type { AppModule } from '../../app-modules';
import { PlatformsResolver } from './platforms.resolver';
import { platformsRoutes } from './platforms.routes';
import { PlatformsService } from './platforms.service';
import { PlatformStatsService } from './platforms.stats';

declare module '../../services' {
  interface Services {
    platforms: PlatformsService;
    platformStats: PlatformStatsService;
  }
}

export const platformsModule: AppModule = {
  name: 'platforms',
  services: {
    platforms: (s, { master }) => new PlatformsService(master.publicKey(), s.ledgerAccounts, s.reference),
    platformStats: () => new PlatformStatsService(),
  },
  routes: platformsRoutes,
  resolvers: [PlatformsResolver],
};
