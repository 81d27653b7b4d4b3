import type { AppModule } from '../../app-modules';
import { RecoveryRequest } from './recovery.entity';
import { RecoveryResolver } from './recovery.resolver';
import { recoveryRoutes } from './recovery.routes';
import { RecoveryService } from './recovery.service';
import { deleteExpiredRecoveryRequests } from './recovery.cleaner';

declare module '../../services' {
  interface Services {
    recovery: RecoveryService;
  }
}

export const recoveryModule: AppModule = {
  name: 'recovery',
  entities: [RecoveryRequest],
  services: { recovery: (s) => new RecoveryService(s.mail, s.credentials.signInLimit) },
  routes: recoveryRoutes,
  resolvers: [RecoveryResolver],
  jobs: () => [deleteExpiredRecoveryRequests],
};
