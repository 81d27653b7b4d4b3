import type { Keypair } from '@stellar/stellar-sdk';
import type { JwtService } from './auth/jwt';
import type { Config } from './config';
import { AccountsService } from './modules/accounts/accounts.service';
import { CredentialsService } from './modules/credentials/credentials.service';
import { PlatformsService } from './modules/platforms/platforms.service';
import { ReferenceService } from './modules/reference/reference.service';
import { SystemService } from './modules/system/system.service';

/** Every domain service, built once per process and shared by both edges. */
export interface Services {
  reference: ReferenceService;
  accounts: AccountsService;
  credentials: CredentialsService;
  system: SystemService;
  platforms: PlatformsService;
}

export function createServices(config: Config, master: Keypair, jwt: JwtService): Services {
  return {
    reference: new ReferenceService(),
    accounts: new AccountsService(),
    credentials: new CredentialsService(jwt),
    system: new SystemService(config.NETWORK_PASSPHRASE, master.publicKey()),
    platforms: new PlatformsService(master.publicKey()),
  };
}
