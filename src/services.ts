import type { Keypair } from '@stellar/stellar-sdk';
import type { Config } from './config';
import { PlatformsService } from './modules/platforms/platforms.service';
import { ReferenceService } from './modules/reference/reference.service';
import { SystemService } from './modules/system/system.service';

/** Every domain service, built once per process and shared by both edges. */
export interface Services {
  reference: ReferenceService;
  system: SystemService;
  platforms: PlatformsService;
}

export function createServices(config: Config, master: Keypair): Services {
  return {
    reference: new ReferenceService(),
    system: new SystemService(config.NETWORK_PASSPHRASE, master.publicKey()),
    platforms: new PlatformsService(master.publicKey()),
  };
}
