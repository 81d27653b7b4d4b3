// What other areas may use of watchlist: nothing outside this folder imports another file of it.
export { Callback, Star } from './watchlist.entity';
export { WatchlistEntryGql, watchlistEntryGql } from './watchlist.types';
