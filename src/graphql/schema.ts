import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { AccountsResolver } from '../modules/accounts/accounts.resolver';
import { BidsResolver } from '../modules/bids/bids.resolver';
import { BlacklistResolver } from '../modules/blacklist/blacklist.resolver';
import { CredentialsResolver } from '../modules/credentials/credentials.resolver';
import { CurrencyResolver } from '../modules/currency/currency.resolver';
import { LotsResolver } from '../modules/lots/lots.resolver';
import { NotificationsResolver } from '../modules/notifications/notifications.resolver';
import { OutboxResolver } from '../modules/outbox/outbox.resolver';
import { PlatformsResolver } from '../modules/platforms/platforms.resolver';
import { RecoveryResolver } from '../modules/recovery/recovery.resolver';
import { ReferenceResolver } from '../modules/reference/reference.resolver';
import { RequestsResolver } from '../modules/requests/requests.resolver';
import { SystemResolver } from '../modules/system/system.resolver';
import { WatchlistResolver } from '../modules/watchlist/watchlist.resolver';
import { DepositsResolver } from '../modules/trading/deposits.resolver';
import { TradingResolver } from '../modules/trading/trading.resolver';
import { DocumentsResolver } from '../modules/documents/documents.resolver';
import { LiveResolver } from '../modules/live/live.resolver';
import { MessagesResolver } from '../modules/messages/messages.resolver';
import { DialogFieldsResolver, LotMessagesResolver, MessageFieldsResolver } from '../modules/messages/messages.fields.resolver';
import { LedgerResolver } from '../modules/ledger/ledger.resolver';
import { guardArguments } from './argument-guard';

export const SCHEMA_FILE = 'schema/schema.graphql';

/**
 * type-graphql refuses to build a schema with subscriptions unless it is given a PubSub, even
 * when every subscription brings its own `subscribe` (ours do: they listen to the live source,
 * which lets `bidPlaced` replay missed bids between subscribing and going live). Topics are unused.
 */
const NO_TOPICS = {
  publish(): void {
    throw new Error('subscriptions publish through the LiveBus');
  },
  subscribe(): AsyncIterable<unknown> {
    throw new Error('subscriptions subscribe through the LiveBus');
  },
};

export function buildAppSchema(): GraphQLSchema {
  return guardArguments(buildSchemaSync({
    resolvers: [SystemResolver, ReferenceResolver, AccountsResolver, CredentialsResolver, PlatformsResolver, BlacklistResolver, OutboxResolver, RecoveryResolver, WatchlistResolver, LotsResolver, BidsResolver, RequestsResolver, CurrencyResolver, NotificationsResolver, TradingResolver, DepositsResolver, DocumentsResolver, LiveResolver, MessagesResolver, MessageFieldsResolver, DialogFieldsResolver, LotMessagesResolver, LedgerResolver],
    validate: false,
    pubSub: NO_TOPICS,
  }));
}

/** The schema as committed in schema/schema.graphql: sorted, so that diffs show real changes. */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
