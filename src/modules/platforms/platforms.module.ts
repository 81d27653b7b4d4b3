import type { AppModule } from '../../app-modules';
import { PlatformsResolver } from './platforms.resolver';
import { platformsRoutes } from './platforms.routes';
import { PlatformsService } from './platforms.service';

declare module '../../services' {
  interface Services {
    platforms: PlatformsService;
  }
}

export const platformsModule: AppModule = {
  name: 'platforms',
  services: { platforms: (s, { master }) => new PlatformsService(master.publicKey(), s.ledgerAccounts, s.reference) },
  routes: platformsRoutes,
  resolvers: [PlatformsResolver],
};
