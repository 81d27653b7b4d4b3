import type { AppModule } from '../../app-modules';
import { CreateLotRequest } from './requests.entity';
import { RequestsResolver } from './requests.resolver';
import { CreateLotRequestConnectionResolver } from './requests.connection.types';
import { requestsRoutes } from './requests.routes';
import { RequestsService } from './requests.service';

declare module '../../services' {
  interface Services {
    requests: RequestsService;
  }
}

export const requestsModule: AppModule = {
  name: 'requests',
  entities: [CreateLotRequest],
  services: { requests: (s) => new RequestsService(s.currency, s.lotMaker, s.notifications) },
  routes: requestsRoutes,
  resolvers: [RequestsResolver, CreateLotRequestConnectionResolver],
};
