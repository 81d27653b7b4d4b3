import { Account, AccountSigner, BlacklistEntry } from '../modules/accounts/accounts.entity';

export const ENTITIES = [Account, AccountSigner, BlacklistEntry];
