import { connectionTypes } from '../../graphql/types/connection';
import { LedgerBalanceGql, LedgerSignerGql } from './ledger.types';

export const { Connection: LedgerBalanceConnectionGql, Resolver: LedgerBalanceConnectionResolver } = connectionTypes('LedgerBalance', () => LedgerBalanceGql);
export const { Connection: LedgerSignerConnectionGql, Resolver: LedgerSignerConnectionResolver } = connectionTypes('LedgerSigner', () => LedgerSignerGql);
