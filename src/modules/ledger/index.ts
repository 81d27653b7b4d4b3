// What other areas may use of ledger: nothing outside this folder imports another file of it.
export type { LedgerAccounts } from './ledger.port';
