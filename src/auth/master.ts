import { existsSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { StartRefusal } from '../start-refusal';
import path from 'node:path';
import { writeNewFile } from '../data-file';
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

/** This instance's master key is not the one the database was started with. */
export class MasterKeyMismatch extends StartRefusal {}

/**
 * The service's root keypair: the one `readMasterKeypair` found, else one generated and kept under
 * DATA_DIR (mode 0600) so that it survives restarts; agreed with the database. Instances sharing a
 * database must sign tokens, links and bid logs as the same master account, so another key is
 * refused; one this start generated is then removed again: it never signed anything, and left
 * behind it would make every later start from this DATA_DIR refused the same way. Only its public
 * key is ever logged.
 */
export async function startMasterKey(em: EntityManager, config: Pick<Config, 'MASTER_SEED' | 'DATA_DIR'>, known: Keypair | null, log: Logger): Promise<Keypair> {
  const keypair = known ?? generated(seedFile(config));
  // A generated seed is kept when this fails: the database may have recorded its key before the answer was lost.
  const recorded = await recordedMasterKey(em, keypair.publicKey());
  if (recorded === keypair.publicKey()) {
    if (!known) log.info({ masterAccountId: keypair.publicKey(), file: seedFile(config) }, 'generated a master key (set MASTER_SEED to choose one)');
    return keypair;
  }
  if (known) {
    const source = config.MASTER_SEED ? 'MASTER_SEED' : seedFile(config);
    throw new MasterKeyMismatch(
      `the database belongs to the master account ${recorded}, and this instance's master key (from ${source}) is ${keypair.publicKey()}: set MASTER_SEED to the same seed on every instance sharing the database`,
    );
  }
  unlinkSync(seedFile(config));
  throw new MasterKeyMismatch(
    `the database belongs to the master account ${recorded}, and this instance has no master key (${seedFile(config)} did not exist, and the one this start generated was not kept): ` +
      `copy master.seed from the DATA_DIR of an instance of this database, or set MASTER_SEED to the same seed on every instance sharing the database`,
  );
}

function generated(file: string): Keypair {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const keypair = Keypair.random();
  writeNewFile(file, `${keypair.secret()}\n`, { mode: 0o600, flag: 'wx' });
  return keypair;
}
