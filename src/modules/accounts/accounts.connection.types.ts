import { connectionTypes } from '../../graphql/types/connection';
import { AccountGql } from './accounts.types';

export const { Connection: AccountConnectionGql, Resolver: AccountConnectionResolver } = connectionTypes('Account', () => AccountGql);
