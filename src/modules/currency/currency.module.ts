import type { AppModule } from '../../app-modules';
import { CurrencyRate } from './currency.entity';
import { refreshRates } from './currency.refresh';
import { CurrencyResolver } from './currency.resolver';
import { currencyRoutes } from './currency.routes';
import { CurrencyService } from './currency.service';
import { MoneyResolver } from './money.resolver';

declare module '../../services' {
  interface Services {
    currency: CurrencyService;
  }
}

export const currencyModule: AppModule = {
  name: 'currency',
  entities: [CurrencyRate],
  services: { currency: (s) => new CurrencyService(s.searches) },
  routes: currencyRoutes,
  resolvers: [CurrencyResolver, MoneyResolver],
  jobs: (services, config) => {
    const url = config.RATES_URL;
    // The first refresh runs at start (src/app.ts); the queue takes the following ones.
    return url
      ? [{ kind: 'recurring', queue: 'rates-refresh', everySeconds: config.RATES_POLL_SECONDS, firstAfterSeconds: config.RATES_POLL_SECONDS, run: (orm, log) => refreshRates(orm, services.currency, url, log) }]
      : [];
  },
};
