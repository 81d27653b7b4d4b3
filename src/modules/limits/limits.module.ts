import type { AppModule } from '../../app-modules';
import { Migration20261124100000Limits } from './migrations/Migration20261124100000Limits';
import { RateLimiter } from './rate-limit';

declare module '../../services' {
  interface Services {
    rateLimits: RateLimiter;
  }
}

/** Rate limits shared by every instance through the database; both edges count their writes here. */
export const limitsModule: AppModule = {
  name: 'limits',
  migrations: [{ name: 'Migration20261124100000Limits', class: Migration20261124100000Limits }],
  services: {
    rateLimits: (_, { config }) =>
      new RateLimiter({
        window: config.RATE_LIMIT_WINDOW,
        writesPerAddress: config.RATE_LIMIT_WRITES_PER_ADDRESS,
        writesPerAccount: config.RATE_LIMIT_WRITES_PER_ACCOUNT,
        accountsWindow: config.RATE_LIMIT_ACCOUNTS_WINDOW,
        accountsPerAddress: config.RATE_LIMIT_ACCOUNTS_PER_ADDRESS,
      }),
  },
  jobs: (services) => [{ kind: 'cleaner', name: 'rate limit counters', run: (em) => services.rateLimits.prune(em) }],
};
