import { connectionTypes } from '../../graphql/types/connection';
import { WatchlistEntryGql } from './watchlist.types';

export const { Connection: WatchlistEntryConnectionGql, Resolver: WatchlistEntryConnectionResolver } = connectionTypes('WatchlistEntry', () => WatchlistEntryGql);
