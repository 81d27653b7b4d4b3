import type { AppModule } from '../../app-modules';
import { Credential, SignInFailure } from './credentials.entity';
import { CredentialsResolver } from './credentials.resolver';
import { credentialsRoutes } from './credentials.routes';
import { CredentialsService } from './credentials.service';
import { Migration20261122010000Identity } from './migrations/Migration20261122010000Identity';

declare module '../../services' {
  interface Services {
    credentials: CredentialsService;
  }
}

export const credentialsModule: AppModule = {
  name: 'credentials',
  entities: [Credential, SignInFailure],
  migrations: [{ name: 'Migration20261122010000Identity', class: Migration20261122010000Identity }],
  services: { credentials: (_, { jwt, config }) => new CredentialsService(jwt, config.SIGN_IN_FAILURES_PER_ADDRESS) },
  routes: credentialsRoutes,
  resolvers: [CredentialsResolver],
};
