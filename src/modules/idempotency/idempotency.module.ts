import type { AppModule } from '../../app-modules';
import { IdempotencyService } from './idempotency.service';
import { Migration20261127220000Idempotency } from './migrations/Migration20261127220000Idempotency';

declare module '../../services' {
  interface Services {
    idempotency: IdempotencyService;
  }
}

/** Keyed retries of GraphQL payload mutations: a key sent again answers its first result. */
export const idempotencyModule: AppModule = {
  name: 'idempotency',
  migrations: [{ name: 'Migration20261127220000Idempotency', class: Migration20261127220000Idempotency }],
  services: { idempotency: () => new IdempotencyService() },
  jobs: (services) => [{ kind: 'cleaner', name: 'idempotency keys', run: (em) => services.idempotency.prune(em) }],
};
