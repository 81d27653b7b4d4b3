import type { AppModule } from '../../app-modules';
import { BidLogEntriesResolver, BidLogResolver } from './bidlog.resolver';
import { bidLogRoutes } from './bidlog.routes';
import { BidLogService } from './bidlog.service';
import { Migration20261124200000BidLog } from './migrations/Migration20261124200000BidLog';

declare module '../../services' {
  interface Services {
    bidLog: BidLogService;
  }
}

/** The verifiable bid log: entries appended by the bid round, heads signed at the close. */
export const bidLogModule: AppModule = {
  name: 'bidlog',
  migrations: [{ name: 'Migration20261124200000BidLog', class: Migration20261124200000BidLog }],
  services: { bidLog: (_s, infra) => new BidLogService(infra.master) },
  routes: bidLogRoutes,
  resolvers: [BidLogResolver, BidLogEntriesResolver],
};
