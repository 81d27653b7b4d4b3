import { connectionTypes } from '../../graphql/types/connection';
import { DialogGql, MessageGql } from './messages.types';

export const { Connection: MessageConnectionGql, Resolver: MessageConnectionResolver } = connectionTypes('Message', () => MessageGql);
export const { Connection: DialogConnectionGql, Resolver: DialogConnectionResolver } = connectionTypes('Dialog', () => DialogGql);
