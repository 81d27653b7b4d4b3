import { WatchlistEntryConnectionResolver } from './watchlist.connection.types';
import type { AppModule } from '../../app-modules';
import { Callback, Star } from './watchlist.entity';
import { WatchlistResolver } from './watchlist.resolver';
import { watchlistRoutes } from './watchlist.routes';
import { WatchlistService } from './watchlist.service';

declare module '../../services' {
  interface Services {
    watchlist: WatchlistService;
  }
}

export const watchlistModule: AppModule = {
  name: 'watchlist',
  entities: [Star, Callback],
  services: { watchlist: (s) => new WatchlistService(s.notifications) },
  routes: watchlistRoutes,
  resolvers: [WatchlistResolver, WatchlistEntryConnectionResolver],
};
