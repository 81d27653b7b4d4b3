// What other areas may use of accounts: nothing outside this folder imports another file of it.
export { Account, AccountSigner, BlacklistEntry } from './accounts.entity';
export { accountId, password, profileFields } from './accounts.input';
export type { DirectSales } from './accounts.port';
export { fullAccountAttributes, presentAccount, publicAccountAttributes } from './accounts.presenter';
export type { AccountView } from './accounts.service';
export { accountArrayById, accountOfArray, accountsByIds } from './accounts.sql';
export { recordedMasterKey } from './master-key.sql';
export { AccountGql, accountGql, shownAccount } from './accounts.types';
export { AccountIdConnectionGql } from './accounts.connection.types';
