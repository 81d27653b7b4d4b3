import type { AppModule } from '../../app-modules';
import { Migration20261124210000SavedSearches } from './migrations/Migration20261124210000SavedSearches';
import { Migration20261125130000SavedSearchPriceMax } from './migrations/Migration20261125130000SavedSearchPriceMax';
import { Migration20261127160000SavedSearchAlerts } from './migrations/Migration20261127160000SavedSearchAlerts';
import { SearchesResolver } from './searches.resolver';
import { searchesRoutes } from './searches.routes';
import { SearchesService } from './searches.service';

declare module '../../services' {
  interface Services {
    searches: SearchesService;
  }
}

/** Saved lot searches, matched against each new lot by the database. */
export const searchesModule: AppModule = {
  name: 'searches',
  migrations: [
    { name: 'Migration20261124210000SavedSearches', class: Migration20261124210000SavedSearches },
    { name: 'Migration20261125130000SavedSearchPriceMax', class: Migration20261125130000SavedSearchPriceMax },
    { name: 'Migration20261127160000SavedSearchAlerts', class: Migration20261127160000SavedSearchAlerts },
  ],
  services: { searches: (s, { config }) => new SearchesService(s.notifications, s.mail, config.SAVED_SEARCHES_PER_ACCOUNT) },
  routes: searchesRoutes,
  resolvers: [SearchesResolver],
  jobs: (services) => [{ kind: 'cleaner', name: 'saved search alerts', run: (em) => services.searches.pruneAlerts(em) }],
};
