import type { Keypair } from '@stellar/stellar-sdk';
import type { JwtService } from './auth/jwt';
import type { Config } from './config';
import type { Logger } from './core/logger';
import { EmbeddedLedgerAccounts } from './modules/ledger/ledger.port';
import { TableOutbox } from './modules/outbox/outbox.table';
import { VerificationService } from './modules/verification/verification.service';
import { AccountsService } from './modules/accounts/accounts.service';
import { CredentialsService } from './modules/credentials/credentials.service';
import { PlatformsService } from './modules/platforms/platforms.service';
import { ReferenceService } from './modules/reference/reference.service';
import { SystemService } from './modules/system/system.service';

/** Every domain service, built once per process and shared by both edges. */
export interface Services {
  reference: ReferenceService;
  accounts: AccountsService;
  verification: VerificationService;
  credentials: CredentialsService;
  system: SystemService;
  platforms: PlatformsService;
}

export function createServices(config: Config, master: Keypair, jwt: JwtService, log: Logger): Services {
  const reference = new ReferenceService();
  const outbox = new TableOutbox(log);
  const ledger = new EmbeddedLedgerAccounts();
  const verification = new VerificationService(outbox);
  return {
    reference,
    verification,
    accounts: new AccountsService(reference, verification, ledger),
    credentials: new CredentialsService(jwt),
    system: new SystemService(config.NETWORK_PASSPHRASE, master.publicKey()),
    platforms: new PlatformsService(master.publicKey(), ledger, reference),
  };
}
