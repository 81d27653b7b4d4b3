import { connectionTypes } from '../../graphql/types/connection';
import { CreateLotRequestGql } from './requests.types';

export const { Connection: CreateLotRequestConnectionGql, Resolver: CreateLotRequestConnectionResolver } = connectionTypes('CreateLotRequest', () => CreateLotRequestGql);
