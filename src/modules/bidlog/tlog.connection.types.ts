import { connectionTypes } from '../../graphql/types/connection';
import { LogEntryGql } from './tlog.types';

export const { Connection: LogEntryConnectionGql, Resolver: LogEntryConnectionResolver } = connectionTypes('LogEntry', () => LogEntryGql);
