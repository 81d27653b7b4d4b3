import { connectionTypes } from '../../graphql/types/connection';
import { OutboxMessageGql } from './outbox.types';

export const { Connection: OutboxMessageConnectionGql, Resolver: OutboxMessageConnectionResolver } = connectionTypes('OutboxMessage', () => OutboxMessageGql);
