import type { AppModule } from '../../app-modules';
import type { DirectSales } from '../accounts';
import { Lot } from './lots.entity';
import { directSaleOrganizer } from './lots.find';
import { LotMaker } from './lots.maker';
import { LotAddResolver } from './lots.add.resolver';
import { LotEditResolver } from './lots.edit.resolver';
import { LotsResolver } from './lots.resolver';
import { LotValuesResolver } from './lots.values.resolver';
import { LotConnectionResolver } from './lots.types';
import { lotsRoutes } from './lots.routes';
import { LotsService } from './lots.service';
import { Migration20261122020000Catalogue } from './migrations/Migration20261122020000Catalogue';
import { Migration20261122040000LotIndexes } from './migrations/Migration20261122040000LotIndexes';
import { Migration20261124100000LotSortKeys } from './migrations/Migration20261124100000LotSortKeys';
import { Migration20261125140000BuyNowPriceIndex } from './migrations/Migration20261125140000BuyNowPriceIndex';
import { Migration20261127220000PlatformStatsIndexes } from './migrations/Migration20261127220000PlatformStatsIndexes';

declare module '../../services' {
  interface Services {
    lots: LotsService;
    lotMaker: LotMaker;
    directSales: DirectSales;
  }
}

export const lotsModule: AppModule = {
  name: 'lots',
  entities: [Lot],
  migrations: [
    { name: 'Migration20261122020000Catalogue', class: Migration20261122020000Catalogue },
    { name: 'Migration20261122040000LotIndexes', class: Migration20261122040000LotIndexes },
    { name: 'Migration20261124100000LotSortKeys', class: Migration20261124100000LotSortKeys },
    { name: 'Migration20261125140000BuyNowPriceIndex', class: Migration20261125140000BuyNowPriceIndex },
    { name: 'Migration20261127220000PlatformStatsIndexes', class: Migration20261127220000PlatformStatsIndexes },
  ],
  services: {
    lotMaker: (s) => new LotMaker(s.lotClock, s.rules, s.searches),
    directSales: () => ({ organizerOf: directSaleOrganizer }),
    lots: (s) => new LotsService(s.reference, s.requests, s.currency, s.lotMaker, s.rules, s.live),
  },
  routes: lotsRoutes,
  resolvers: [LotsResolver, LotAddResolver, LotEditResolver, LotValuesResolver, LotConnectionResolver],
};
