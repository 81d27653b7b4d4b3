import type { AppModule } from '../../app-modules';
import { ReferenceResolver } from './reference.resolver';
import { referenceRoutes } from './reference.routes';
import { ReferenceService } from './reference.service';

declare module '../../services' {
  interface Services {
    reference: ReferenceService;
  }
}

export const referenceModule: AppModule = {
  name: 'reference',
  services: { reference: () => new ReferenceService() },
  routes: referenceRoutes,
  resolvers: [ReferenceResolver],
};
