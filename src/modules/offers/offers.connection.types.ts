import { connectionTypes } from '../../graphql/types/connection';
import { SecondChanceOfferGql } from './offers.types';

export const { Connection: SecondChanceOfferConnectionGql, Resolver: SecondChanceOfferConnectionResolver } = connectionTypes('SecondChanceOffer', () => SecondChanceOfferGql);
