import type { AppModule } from '../../app-modules';
import { NodeResolver } from './node.resolver';
import { SystemResolver } from './system.resolver';
import { systemRoutes } from './system.routes';
import { SystemService } from './system.service';

declare module '../../services' {
  interface Services {
    system: SystemService;
  }
}

export const systemModule: AppModule = {
  name: 'system',
  services: { system: (_, { config, master }) => new SystemService(config.NETWORK_PASSPHRASE, master.publicKey()) },
  routes: systemRoutes,
  // The schema's object identification (`node`, `nodes`): each type registers its own refetch.
  resolvers: [SystemResolver, NodeResolver],
};
