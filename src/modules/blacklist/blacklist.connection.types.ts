import { connectionTypes } from '../../graphql/types/connection';
import { BlacklistEntryGql } from './blacklist.types';

export const { Connection: BlacklistEntryConnectionGql, Resolver: BlacklistEntryConnectionResolver } = connectionTypes('BlacklistEntry', () => BlacklistEntryGql);
