import { LedgerBalanceConnectionResolver, LedgerSignerConnectionResolver } from './ledger.connection.types';
import type { AppModule } from '../../app-modules';
import { Migration20261122090000Ledger } from './migrations/Migration20261122090000Ledger';
import { Migration20261124000000LedgerRelay } from './migrations/Migration20261124000000LedgerRelay';
import { LedgerDataWriter } from './ledger.anchor';
import { DepositPayments } from './ledger.deposits';
import { LedgerAccount, LedgerBalance, LedgerClose, LedgerData, LedgerTransaction } from './ledger.entity';
import { HorizonRelay } from './ledger.horizon';
import { EmbeddedLedgerAccounts, type LedgerAccounts } from './ledger.port';
import { RelayedSubmissions } from './ledger.relay';
import { LedgerResolver } from './ledger.resolver';
import { ledgerRoutes } from './ledger.routes';
import { LedgerService } from './ledger.service';

declare module '../../services' {
  interface Services {
    ledger: LedgerService;
    ledgerAccounts: LedgerAccounts;
    ledgerData: LedgerDataWriter;
  }
}

export const ledgerModule: AppModule = {
  name: 'ledger',
  entities: [LedgerAccount, LedgerBalance, LedgerData, LedgerClose, LedgerTransaction],
  migrations: [
    { name: 'Migration20261122090000Ledger', class: Migration20261122090000Ledger },
    { name: 'Migration20261124000000LedgerRelay', class: Migration20261124000000LedgerRelay },
  ],
  services: {
    ledgerAccounts: () => new EmbeddedLedgerAccounts(),
    ledger: (s, { config, master }) => {
      const payments = new DepositPayments(s.deposits);
      const horizon = config.HORIZON_URL ? new HorizonRelay(config.HORIZON_URL, config.HORIZON_ANSWER_SECONDS * 1000) : null;
      const relay = horizon ? new RelayedSubmissions(horizon, config.NETWORK_PASSPHRASE, payments, config.HORIZON_RETRY_SECONDS * 1000) : null;
      return new LedgerService(config.NETWORK_PASSPHRASE, payments, relay, horizon, master.publicKey());
    },
    ledgerData: (s, { config }) => new LedgerDataWriter(config.NETWORK_PASSPHRASE, s.ledger.embeddedLedger, config.HORIZON_URL ? new HorizonRelay(config.HORIZON_URL, config.HORIZON_ANSWER_SECONDS * 1000) : null),
  },
  routes: ledgerRoutes,
  resolvers: [LedgerResolver, LedgerBalanceConnectionResolver, LedgerSignerConnectionResolver],
  jobs: (services, config) =>
    config.HORIZON_URL
      ? [
          {
            kind: 'recurring',
            queue: 'ledger-relay',
            everySeconds: config.HORIZON_RETRY_SECONDS,
            firstAfterSeconds: config.HORIZON_RETRY_SECONDS,
            run: async (orm, log) => {
              const completed = await services.ledger.completeRelayed(orm.em.fork());
              if (completed) log.info({ completed }, 'relayed transactions completed');
            },
          },
        ]
      : [],
};
