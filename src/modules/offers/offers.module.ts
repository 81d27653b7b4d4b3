import type { AppModule } from '../../app-modules';
import { Migration20261125120000SecondChanceOffers } from './migrations/Migration20261125120000SecondChanceOffers';
import { SecondChanceOffer } from './offers.entity';
import { SecondChanceOfferConnectionResolver } from './offers.connection.types';
import { OffersResolver } from './offers.resolver';
import { offersRoutes } from './offers.routes';
import { SecondChanceService } from './offers.service';

declare module '../../services' {
  interface Services {
    secondChance: SecondChanceService;
  }
}

/** Second-chance offers: a lot whose winner's deal was canceled, or whose reserve lapsed, offered to its other bidders, one at a time. */
export const offersModule: AppModule = {
  name: 'offers',
  entities: [SecondChanceOffer],
  migrations: [{ name: 'Migration20261125120000SecondChanceOffers', class: Migration20261125120000SecondChanceOffers }],
  services: { secondChance: (s) => new SecondChanceService(s.notifications, s.winners, s.rules) },
  routes: offersRoutes,
  resolvers: [OffersResolver, SecondChanceOfferConnectionResolver],
  // Open offers whose time is up expire on one instance of all, every SECOND_CHANCE_EXPIRY_SECONDS.
  jobs: (services, config) => [
    {
      kind: 'recurring',
      queue: 'second-chance-expiry',
      everySeconds: config.SECOND_CHANCE_EXPIRY_SECONDS,
      firstAfterSeconds: config.SECOND_CHANCE_EXPIRY_SECONDS,
      run: async (orm, log) => {
        const expired = await services.secondChance.expireDue(orm.em.fork());
        if (expired) log.info({ expired }, 'second-chance offers expired');
      },
    },
  ],
};
