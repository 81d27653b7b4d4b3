import type { AppModule } from '../../app-modules';
import { VerificationToken } from './verification.entity';
import { verificationRoutes } from './verification.routes';
import { VerificationService } from './verification.service';
import { deleteExpiredVerificationTokens } from './verification.cleaner';

declare module '../../services' {
  interface Services {
    verification: VerificationService;
  }
}

export const verificationModule: AppModule = {
  name: 'verification',
  entities: [VerificationToken],
  services: { verification: (s) => new VerificationService(s.mail) },
  routes: verificationRoutes,
  jobs: () => [deleteExpiredVerificationTokens],
};
