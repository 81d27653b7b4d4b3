import { connectionTypes } from '../../graphql/types/connection';
import { AccountGql } from './accounts.types';

export const { Connection: AccountConnectionGql, Resolver: AccountConnectionResolver } = connectionTypes('Account', () => AccountGql);

/** Account ids (the platforms an admin serves, the operator's platforms), each its own cursor's position. */
export const { Connection: AccountIdConnectionGql, Resolver: AccountIdConnectionResolver } = connectionTypes('AccountId', () => String);
