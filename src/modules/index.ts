import type { EntityClass, MigrationObject } from '@mikro-orm/core';
import type { AppModule } from '../app-modules';
import { accountsModule } from './accounts/accounts.module';
import { bidLogModule } from './bidlog/bidlog.module';
import { bidsModule } from './bids/bids.module';
import { buyingPowerModule } from './buying-power/buying-power.module';
import { blacklistModule } from './blacklist/blacklist.module';
import { credentialsModule } from './credentials/credentials.module';
import { currencyModule } from './currency/currency.module';
import { documentsModule } from './documents/documents.module';
import { idempotencyModule } from './idempotency/idempotency.module';
import { limitsModule } from './limits/limits.module';
import { ledgerModule } from './ledger/ledger.module';
import { liveModule } from './live/live.module';
import { lotRelationsModule } from './lot-relations/lot-relations.module';
import { lotsModule } from './lots/lots.module';
import { messagesModule } from './messages/messages.module';
import { notificationsModule } from './notifications/notifications.module';
import { offersModule } from './offers/offers.module';
import { outboxModule } from './outbox/outbox.module';
import { platformsModule } from './platforms/platforms.module';
import { recoveryModule } from './recovery/recovery.module';
import { referenceModule } from './reference/reference.module';
import { rulesModule } from './rules/rules.module';
import { requestsModule } from './requests/requests.module';
import { searchesModule } from './searches/searches.module';
import { systemModule } from './system/system.module';
import { tradingModule } from './trading/trading.module';
import { verificationModule } from './verification/verification.module';
import { viewerModule } from './viewer/viewer.module';
import { watchlistModule } from './watchlist/watchlist.module';

/** Every area of the app; routes are matched, and housekeeping runs, in this order. */
export const MODULES: readonly AppModule[] = [
  systemModule,
  referenceModule,
  verificationModule,
  accountsModule,
  blacklistModule,
  credentialsModule,
  recoveryModule,
  platformsModule,
  rulesModule,
  currencyModule,
  lotsModule,
  bidsModule,
  bidLogModule,
  buyingPowerModule,
  requestsModule,
  watchlistModule,
  searchesModule,
  tradingModule,
  offersModule,
  documentsModule,
  notificationsModule,
  ledgerModule,
  messagesModule,
  outboxModule,
  liveModule,
  viewerModule,
  lotRelationsModule,
  limitsModule,
  idempotencyModule,
];

export const ENTITIES: EntityClass<unknown>[] = MODULES.flatMap((m) => m.entities ?? []);

/** The schema's history, in the order of the migrations' names (their timestamps), whichever area holds them. */
export const MIGRATIONS: MigrationObject[] = MODULES.flatMap((m) => m.migrations ?? []).sort((a, b) => a.name.localeCompare(b.name));
