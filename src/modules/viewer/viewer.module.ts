import type { AppModule } from '../../app-modules';
import { AccountRelationsResolver, BidRelationsResolver, DepositRelationsResolver, LotViewerResolver, NotificationRelationsResolver, ParticipantRelationsResolver, ParticipationRelationsResolver, WatchlistEntryRelationsResolver } from './relations.resolver';
import { LotAccountNoticeResolver, MessageNoticeResolver, NoticeLotResolver, NotificationPayloadResolver, OutbidNoticeResolver } from './notices.resolver';
import { ViewerResolver } from './viewer.resolver';
import { ViewerNotificationConnectionResolver, ViewerParticipationConnectionResolver, ViewerSavedSearchConnectionResolver, ViewerWatchlistConnectionResolver } from './viewer.types';

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
    NotificationPayloadResolver,
    NoticeLotResolver,
    OutbidNoticeResolver,
    LotAccountNoticeResolver,
    MessageNoticeResolver,
    BidRelationsResolver,
    AccountRelationsResolver,
    ViewerParticipationConnectionResolver,
    ViewerWatchlistConnectionResolver,
    ViewerNotificationConnectionResolver,
    ViewerSavedSearchConnectionResolver,
  ],
};
