import type { AppModule } from '../../app-modules';
import { Bid } from './bids.entity';
import { BidsResolver, PlaceBidResultResolver } from './bids.resolver';
import { bidsRoutes } from './bids.routes';
import { BidsService } from './bids.service';
import { BidConnectionResolver } from './bids.types';
import { Migration20261122060000Bids } from './migrations/Migration20261122060000Bids';
import { Migration20261124120000BidKeys } from './migrations/Migration20261124120000BidKeys';
import { Migration20261127220000BidActivity } from './migrations/Migration20261127220000BidActivity';
import { Migration20261128220000BidActivityHot } from './migrations/Migration20261128220000BidActivityHot';

declare module '../../services' {
  interface Services {
    bids: BidsService;
  }
}

export const bidsModule: AppModule = {
  name: 'bids',
  entities: [Bid],
  migrations: [
    { name: 'Migration20261122060000Bids', class: Migration20261122060000Bids },
    { name: 'Migration20261124120000BidKeys', class: Migration20261124120000BidKeys },
    { name: 'Migration20261127220000BidActivity', class: Migration20261127220000BidActivity },
    { name: 'Migration20261128220000BidActivityHot', class: Migration20261128220000BidActivityHot },
  ],
  services: { bids: (s) => new BidsService(s.notifications, s.live, s.lotClock, s.transparencyLog) },
  routes: bidsRoutes,
  resolvers: [BidsResolver, PlaceBidResultResolver, BidConnectionResolver],
};
