import type { AppModule } from '../../app-modules';
import type { LotIncluder } from '../lots';
import { LotCallbackConnectionResolver, LotStarConnectionResolver, ParticipantConnectionResolver } from './lot-relations.connection.types';
import { lotIncluder } from './lot-relations.presenter';
import { LotRelationsResolver } from './lot-relations.resolver';
import { LotRelationsService } from './lot-relations.service';

declare module '../../services' {
  interface Services {
    lotRelations: LotRelationsService;
    lotIncluder: LotIncluder;
  }
}

/** What a lot shows beside it from the areas above lots: REST's include of a page of lots and the fields of GraphQL's Lot that other areas own. */
export const lotRelationsModule: AppModule = {
  name: 'lot-relations',
  services: {
    lotRelations: () => new LotRelationsService(),
    lotIncluder: (s) => lotIncluder(s.lotRelations),
  },
  resolvers: [LotRelationsResolver, ParticipantConnectionResolver, LotCallbackConnectionResolver, LotStarConnectionResolver],
};
