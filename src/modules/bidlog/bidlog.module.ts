import type { AppModule } from '../../app-modules';
import { BidLogEntryConnectionResolver } from './bidlog.connection.types';
import { BidLogEntriesResolver, BidLogResolver } from './bidlog.resolver';
import { bidLogRoutes } from './bidlog.routes';
import { BidLogService } from './bidlog.service';
import { Migration20261124200000BidLog } from './migrations/Migration20261124200000BidLog';
import { Migration20261127220000TransparencyLog } from './migrations/Migration20261127220000TransparencyLog';
import { Migration20261128010000LogWitnesses } from './migrations/Migration20261128010000LogWitnesses';
import { Migration20261128010000TlogSequencer } from './migrations/Migration20261128010000TlogSequencer';
import { Migration20261128013000TlogKeys } from './migrations/Migration20261128013000TlogKeys';
import { Migration20261128050000TlogLeafHash } from './migrations/Migration20261128050000TlogLeafHash';
import { Migration20261128090000TlogSigningKey } from './migrations/Migration20261128090000TlogSigningKey';
import { Migration20261128150000TlogKeyPeriods } from './migrations/Migration20261128150000TlogKeyPeriods';
import { Migration20261129100000TlogWitnessed } from './migrations/Migration20261129100000TlogWitnessed';
import { LogAnchors } from './tlog.anchor';
import { LogEntryConnectionResolver } from './tlog.connection.types';
import { TransparencyLogResolver } from './tlog.resolver';
import { TransparencyLog } from './tlog.service';
import { LogWitnesses, witnessesOf } from './tlog.witnesses';

declare module '../../services' {
  interface Services {
    bidLog: BidLogService;
    transparencyLog: TransparencyLog;
    logAnchors: LogAnchors;
    logWitnesses: LogWitnesses;
  }
}

/** The verifiable bid log: entries appended by the bid round, heads signed at the close. */
export const bidLogModule: AppModule = {
  name: 'bidlog',
  migrations: [
    { name: 'Migration20261124200000BidLog', class: Migration20261124200000BidLog },
    { name: 'Migration20261127220000TransparencyLog', class: Migration20261127220000TransparencyLog },
    { name: 'Migration20261128010000LogWitnesses', class: Migration20261128010000LogWitnesses },
    { name: 'Migration20261128010000TlogSequencer', class: Migration20261128010000TlogSequencer },
    { name: 'Migration20261128013000TlogKeys', class: Migration20261128013000TlogKeys },
    { name: 'Migration20261128050000TlogLeafHash', class: Migration20261128050000TlogLeafHash },
    { name: 'Migration20261128090000TlogSigningKey', class: Migration20261128090000TlogSigningKey },
    { name: 'Migration20261128150000TlogKeyPeriods', class: Migration20261128150000TlogKeyPeriods },
    { name: 'Migration20261129100000TlogWitnessed', class: Migration20261129100000TlogWitnessed },
  ],
  services: {
    bidLog: (s, infra) => new BidLogService(infra.master, s.transparencyLog),
    transparencyLog: (_s, { config, logKey }) => new TransparencyLog(logKey, config.LOG_ORIGIN, config.TLOG_APPEND === 'on'),
    logAnchors: (s, { logKey }) => new LogAnchors(logKey, s.ledgerData),
    logWitnesses: (_s, { config }) => new LogWitnesses(witnessesOf(config.LOG_WITNESSES), config.LOG_ORIGIN),
  },
  routes: bidLogRoutes,
  resolvers: [BidLogResolver, BidLogEntriesResolver, BidLogEntryConnectionResolver, TransparencyLogResolver, LogEntryConnectionResolver],
  jobs: (services, config) => {
    // Whether the anchor job's last run failed: an outage of the ledger is said once as it begins and once as it ends, not at every run.
    let ledgerOut = false;
    return [
      {
        kind: 'recurring',
        queue: 'bid-log-checkpoint',
        everySeconds: config.CHECKPOINT_SECONDS,
        firstAfterSeconds: config.CHECKPOINT_SECONDS,
        run: async (orm) => {
          await services.transparencyLog.checkpointNow({ em: orm.em.fork() });
        },
      },
      {
        kind: 'recurring',
        queue: 'bid-log-anchor',
        everySeconds: config.ANCHOR_SECONDS,
        firstAfterSeconds: config.ANCHOR_SECONDS,
        run: async (orm, log) => {
          try {
            const anchored = await services.logAnchors.anchorPending(orm.em.fork());
            if (ledgerOut) log.info({ anchored }, 'the ledger answers again: checkpoints anchored');
            else if (anchored) log.info({ anchored }, 'checkpoints anchored on the ledger');
            ledgerOut = false;
          } catch (err) {
            // The checkpoints stay unanchored for the next run; nothing else waits for the ledger. One line, no stack: the ledger's state is the news.
            if (!ledgerOut) log.warn(`checkpoints not anchored: ${err instanceof Error ? err.message : String(err)}; the job tries again every ${config.ANCHOR_SECONDS} s and says when the ledger answers`);
            ledgerOut = true;
          }
        },
      },
    ];
  },
};
