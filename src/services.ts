import type { Keypair } from '@stellar/stellar-sdk';
import type { JwtService } from './auth/jwt';
import type { Config } from './config';
import type { Logger } from './core/logger';
import { EmbeddedLedgerAccounts } from './modules/ledger/ledger.port';
import { DepositPayments } from './modules/ledger/ledger.deposits';
import { HorizonRelay } from './modules/ledger/ledger.horizon';
import { RelayedSubmissions } from './modules/ledger/ledger.relay';
import { LedgerService } from './modules/ledger/ledger.service';
import { TableOutbox } from './modules/outbox/outbox.table';
import { SmtpOutbox } from './modules/outbox/outbox.smtp';
import { RecoveryService } from './modules/recovery/recovery.service';
import { VerificationService } from './modules/verification/verification.service';
import { AccountsService } from './modules/accounts/accounts.service';
import { BlacklistService } from './modules/blacklist/blacklist.service';
import { OutboxService } from './modules/outbox/outbox.service';
import { CredentialsService } from './modules/credentials/credentials.service';
import { PlatformsService } from './modules/platforms/platforms.service';
import { ReferenceService } from './modules/reference/reference.service';
import { SystemService } from './modules/system/system.service';
import { BidsService } from './modules/bids/bids.service';
import { CurrencyService } from './modules/currency/currency.service';
import { LotsService } from './modules/lots/lots.service';
import { RequestsService } from './modules/requests/requests.service';
import { WatchlistService } from './modules/watchlist/watchlist.service';
import { DepositsService } from './modules/trading/deposits.service';
import { ParticipationService } from './modules/trading/participation.service';
import { WinnersService } from './modules/trading/winners.service';
import type { DocumentsService } from './modules/documents/documents.service';
import { createDocumentsService } from './modules/documents/documents.setup';
import { NotificationsService } from './modules/notifications/notifications.service';
import { LiveFeeds } from './modules/live/live.feeds';
import { MessagesService } from './modules/messages/messages.service';
import { LiveBus } from './live/live.bus';
import { createTransport } from './live/live.transport';
import { LotClock } from './jobs/lot-clock';

/** Every domain service, built once per process and shared by both edges. */
export interface Services {
  reference: ReferenceService;
  accounts: AccountsService;
  verification: VerificationService;
  credentials: CredentialsService;
  recovery: RecoveryService;
  system: SystemService;
  platforms: PlatformsService;
  blacklist: BlacklistService;
  outbox: OutboxService;
  currency: CurrencyService;
  requests: RequestsService;
  lots: LotsService;
  watchlist: WatchlistService;
  participation: ParticipationService;
  winners: WinnersService;
  documents: DocumentsService;
  deposits: DepositsService;
  notifications: NotificationsService;
  bids: BidsService;
  live: LiveBus;
  feeds: LiveFeeds;
  lotClock: LotClock;
  messages: MessagesService;
  ledger: LedgerService;
}

export function createServices(config: Config, master: Keypair, jwt: JwtService, log: Logger): Services {
  const reference = new ReferenceService();
  const table = new TableOutbox(log);
  const outbox = config.SMTP_URL ? new SmtpOutbox(config.SMTP_URL, config.SMTP_FROM, table, log) : table;
  const ledger = new EmbeddedLedgerAccounts();
  const verification = new VerificationService(outbox);
  const currency = new CurrencyService();
  const notifications = new NotificationsService();
  const live = new LiveBus(createTransport(config, log));
  // Notifications committed in this process reach their subscribers on every instance.
  notifications.bus.subscribeAll((n) => live.publishNotification(n));
  const requests: RequestsService = new RequestsService(currency, () => lots, notifications);
  const lotClock = new LotClock({ finishingNoticeSeconds: config.FINISHING_NOTICE_SECONDS, unpaidInvoiceReminderSeconds: config.UNPAID_INVOICE_REMINDER_SECONDS });
  const lots: LotsService = new LotsService(reference, requests, currency, lotClock);
  const credentials = new CredentialsService(jwt);
  const deposits = new DepositsService(notifications);
  const payments = new DepositPayments(deposits);
  const relay = config.HORIZON_URL
    ? new RelayedSubmissions(new HorizonRelay(config.HORIZON_URL), config.NETWORK_PASSPHRASE, payments, config.HORIZON_RETRY_SECONDS * 1000)
    : null;
  return {
    reference,
    verification,
    accounts: new AccountsService(reference, verification, ledger),
    credentials,
    recovery: new RecoveryService(outbox, credentials.signInLimit),
    system: new SystemService(config.NETWORK_PASSPHRASE, master.publicKey()),
    platforms: new PlatformsService(master.publicKey(), ledger, reference),
    blacklist: new BlacklistService(live),
    outbox: new OutboxService(),
    currency,
    requests,
    lots,
    watchlist: new WatchlistService(notifications),
    participation: new ParticipationService(notifications),
    winners: new WinnersService(notifications, () => lots, live, lotClock),
    deposits,
    documents: createDocumentsService(config, master),
    notifications,
    bids: new BidsService(notifications, live),
    live,
    feeds: new LiveFeeds(live, lots),
    lotClock,
    messages: new MessagesService(notifications),
    ledger: new LedgerService(config.NETWORK_PASSPHRASE, payments, relay),
  };
}
