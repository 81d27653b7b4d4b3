import type { AppModule } from '../../app-modules';
import { AccountRelationsResolver, BidRelationsResolver, DepositRelationsResolver, LotViewerResolver, NotificationRelationsResolver, ParticipantRelationsResolver, ParticipationRelationsResolver, WatchlistEntryRelationsResolver } from './relations.resolver';
import { ViewerResolver } from './viewer.resolver';

export const viewerModule: AppModule = {
  name: 'viewer',
  resolvers: [
    ViewerResolver,
    LotViewerResolver,
    ParticipantRelationsResolver,
    ParticipationRelationsResolver,
    DepositRelationsResolver,
    WatchlistEntryRelationsResolver,
    NotificationRelationsResolver,
    BidRelationsResolver,
    AccountRelationsResolver,
  ],
};
