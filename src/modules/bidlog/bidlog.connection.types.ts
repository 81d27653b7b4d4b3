import { connectionTypes } from '../../graphql/types/connection';
import { BidLogEntryGql } from './bidlog.types';

export const { Connection: BidLogEntryConnectionGql, Resolver: BidLogEntryConnectionResolver } = connectionTypes('BidLogEntry', () => BidLogEntryGql);
