import { Field, ID, ObjectType } from 'type-graphql';
import { connectionTypes } from '../../graphql/types/connection';
import { NodeGql } from '../../graphql/types/node';
import { AccountGql } from '../accounts';
import { NotificationGql } from '../notifications';
import { SavedSearchGql } from '../searches';
import { ParticipationGql } from '../trading';
import { WatchlistEntryGql } from '../watchlist';

@ObjectType('Viewer', { implements: NodeGql, description: 'The signed-in account and what its dashboard lists: its participations, watchlist, won and organized lots, notifications' })
export class ViewerGql {
  @Field(() => ID, { description: "The account's id" }) id!: string;
  @Field(() => AccountGql, { description: 'The full record of the account' }) account!: AccountGql;
}

export const { Connection: ViewerParticipationConnectionGql, Resolver: ViewerParticipationConnectionResolver } = connectionTypes('ViewerParticipation', () => ParticipationGql);
export const { Connection: ViewerWatchlistConnectionGql, Resolver: ViewerWatchlistConnectionResolver } = connectionTypes('ViewerWatchlist', () => WatchlistEntryGql);
export const { Connection: ViewerNotificationConnectionGql, Resolver: ViewerNotificationConnectionResolver } = connectionTypes('ViewerNotification', () => NotificationGql);
export const { Connection: ViewerSavedSearchConnectionGql, Resolver: ViewerSavedSearchConnectionResolver } = connectionTypes('ViewerSavedSearch', () => SavedSearchGql);
