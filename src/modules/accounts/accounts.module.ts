import { AccountConnectionResolver, AccountIdConnectionResolver } from './accounts.connection.types';
import type { AppModule } from '../../app-modules';
import { Account, AccountSigner, BlacklistEntry } from './accounts.entity';
import { AccountFieldsResolver } from './accounts.fields.resolver';
import type { AccountOpening } from './accounts.port';
import { AccountsResolver } from './accounts.resolver';
import { RegistrationResolver } from './registration.resolver';
import { VerificationResolver } from './verification.resolver';
import { accountsRoutes } from './accounts.routes';
import { AccountsService } from './accounts.service';
import { contactsRoutes } from './contacts.routes';
import { Migration20261122000000Foundation } from './migrations/Migration20261122000000Foundation';
import { Migration20261122110000ReplayLogged } from './migrations/Migration20261122110000ReplayLogged';
import { Migration20261127224000MasterKey } from './migrations/Migration20261127224000MasterKey';

declare module '../../services' {
  interface Services {
    accounts: AccountsService;
  }
}

export const accountsModule: AppModule = {
  name: 'accounts',
  entities: [Account, AccountSigner, BlacklistEntry],
  migrations: [
    { name: 'Migration20261122000000Foundation', class: Migration20261122000000Foundation },
    { name: 'Migration20261122110000ReplayLogged', class: Migration20261122110000ReplayLogged },
    { name: 'Migration20261127224000MasterKey', class: Migration20261127224000MasterKey },
  ],
  services: {
    accounts: (s) => {
      const opening: AccountOpening = {
        async opened(em, account, passwordHash) {
          await s.credentials.storePassword(em, account.id, passwordHash);
          await s.ledgerAccounts.open(em, account.id);
          await s.verification.issue(em, account, 'email', false);
          await s.verification.issue(em, account, 'phone', false);
        },
      };
      return new AccountsService(s.reference, opening, s.directSales);
    },
  },
  routes: (router) => {
    accountsRoutes(router);
    contactsRoutes(router);
  },
  resolvers: [AccountsResolver, AccountFieldsResolver, AccountConnectionResolver, AccountIdConnectionResolver, RegistrationResolver, VerificationResolver],
};
