import type { AppModule } from '../../app-modules';
import { Credential, SignInFailure } from './credentials.entity';
import { CredentialsResolver } from './credentials.resolver';
import { credentialsRoutes } from './credentials.routes';
import { CredentialsService } from './credentials.service';
import { Migration20261122010000Identity } from './migrations/Migration20261122010000Identity';
import { Migration20261127150000SignInAddresses } from './migrations/Migration20261127150000SignInAddresses';

declare module '../../services' {
  interface Services {
    credentials: CredentialsService;
  }
}

export const credentialsModule: AppModule = {
  name: 'credentials',
  entities: [Credential, SignInFailure],
  migrations: [
    { name: 'Migration20261122010000Identity', class: Migration20261122010000Identity },
    { name: 'Migration20261127150000SignInAddresses', class: Migration20261127150000SignInAddresses },
  ],
  services: { credentials: (_, { jwt, config }) => new CredentialsService(jwt, config.SIGN_IN_FAILURES_PER_ADDRESS) },
  routes: credentialsRoutes,
  resolvers: [CredentialsResolver],
  jobs: (services) => [{ kind: 'cleaner', name: 'sign-in addresses', run: (em) => services.credentials.signInLimit.prune(em) }],
};
