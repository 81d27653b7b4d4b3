import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { StartRefusal } from '../start-refusal';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import { recordedMasterKey } from '../modules/accounts';

const seedFile = (config: Pick<Config, 'DATA_DIR'>) => path.resolve(config.DATA_DIR, 'master.seed');

/** DATA_DIR/master.seed holds something that is not a secret seed. */
export class MasterSeedError extends StartRefusal {}

/** The master keypair from MASTER_SEED, else from DATA_DIR/master.seed; null before the first start. */
export function readMasterKeypair(config: Pick<Config, 'MASTER_SEED' | 'DATA_DIR'>): Keypair | null {
  if (config.MASTER_SEED) return Keypair.fromSecret(config.MASTER_SEED);
  const file = seedFile(config);
  if (!existsSync(file)) return null;
  try {
    return Keypair.fromSecret(readFileSync(file, 'utf8').trim());
  } catch {
    // Never a new key in its place: the master account, its signers and every JWT hang on this one.
    throw new MasterSeedError(`${file} holds no secret seed (S…, 56 characters): restore it from a backup of DATA_DIR, or set MASTER_SEED`);
  }
}

/**
 * The service's root keypair: the one `readMasterKeypair` found, else one generated and kept under
 * DATA_DIR (mode 0600) so that it survives restarts. Only its public key is ever logged.
 */
export function masterKeypair(config: Config, known: Keypair | null, log: Logger): Keypair {
  if (known) return known;
  const file = seedFile(config);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const keypair = Keypair.random();
  writeFileSync(file, `${keypair.secret()}\n`, { mode: 0o600, flag: 'wx' });
  log.info({ masterAccountId: keypair.publicKey(), file }, 'generated a master key (set MASTER_SEED to choose one)');
  return keypair;
}

/** This instance's master key is not the one the database was started with. */
export class MasterKeyMismatch extends StartRefusal {}

/**
 * Refuses a master key other than the one the database recorded at its first start: instances
 * sharing a database must sign tokens, links and bid logs as the same master account.
 */
export async function agreeOnMasterKey(em: EntityManager, keypair: Keypair, config: Pick<Config, 'MASTER_SEED' | 'DATA_DIR'>): Promise<void> {
  const recorded = await recordedMasterKey(em, keypair.publicKey());
  if (recorded === keypair.publicKey()) return;
  const source = config.MASTER_SEED ? 'MASTER_SEED' : seedFile(config);
  throw new MasterKeyMismatch(
    `the database belongs to the master account ${recorded}, and this instance's master key (from ${source}) is ${keypair.publicKey()}: set MASTER_SEED to the same seed on every instance sharing the database`,
  );
}
