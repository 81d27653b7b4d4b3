import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import type { Config } from '../config';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../core/logger';
import { recordedLogKey } from '../modules/bidlog';
import { StartRefusal } from '../start-refusal';

/** The log's key file holds no seed, or the log would sign with the master key. */
export class LogKeyError extends StartRefusal {}

/** The database's log signs with another key than the one this instance generated for itself. */
export class LogKeyMismatch extends StartRefusal {}

const keyFile = (config: Pick<Config, 'DATA_DIR' | 'LOG_KEY_FILE'>) => path.resolve(config.LOG_KEY_FILE ?? path.join(config.DATA_DIR, 'log.seed'));

/**
 * The transparency log's signing key (docs/bid-log.md): LOG_SIGNING_SEED, else the seed in
 * LOG_KEY_FILE (by default DATA_DIR/log.seed), generated there (mode 0600) on first start. It is
 * never the master key: a log whose checkpoints the marketplace's own key signs would let one
 * stolen seed both run the marketplace and vouch for its history.
 */
export function loadLogKeypair(config: Pick<Config, 'DATA_DIR' | 'LOG_KEY_FILE' | 'LOG_SIGNING_SEED'>, master: Keypair, log: Logger): Keypair {
  const keypair = config.LOG_SIGNING_SEED ? Keypair.fromSecret(config.LOG_SIGNING_SEED) : fromFile(keyFile(config), log);
  if (keypair.publicKey() === master.publicKey()) throw new LogKeyError('the log signing key is the master key: give the log a key of its own (LOG_SIGNING_SEED or LOG_KEY_FILE)');
  return keypair;
}

function fromFile(file: string, log: Logger): Keypair {
  if (existsSync(file)) {
    try {
      return Keypair.fromSecret(readFileSync(file, 'utf8').trim());
    } catch {
      // Never a new key in its place: every receipt and checkpoint given out hangs on this one.
      throw new LogKeyError(`${file} holds no secret seed (S…, 56 characters): restore it, or set LOG_SIGNING_SEED`);
    }
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const keypair = Keypair.random();
  writeFileSync(file, `${keypair.secret()}\n`, { mode: 0o600, flag: 'wx' });
  log.info({ logKey: keypair.publicKey(), file }, 'generated the bid log signing key (set LOG_SIGNING_SEED or LOG_KEY_FILE to choose one)');
  return keypair;
}

/**
 * Loads the log key and refuses it when the database's log is signed by another and this key was
 * not chosen by the operator: instances sharing a database, each with a log.seed generated in its
 * own DATA_DIR, would sign receipts and checkpoints with keys no verifier was given. A chosen key
 * (LOG_SIGNING_SEED, or an existing LOG_KEY_FILE) is a rotation and is recorded in the old one's place.
 */
export async function agreeOnLogKey(em: EntityManager, config: Pick<Config, 'DATA_DIR' | 'LOG_KEY_FILE' | 'LOG_SIGNING_SEED'>, master: Keypair, log: Logger): Promise<void> {
  const file = keyFile(config);
  const chosen = config.LOG_SIGNING_SEED !== undefined || (config.LOG_KEY_FILE !== undefined && existsSync(file));
  const keypair = loadLogKeypair(config, master, log);
  const recorded = await recordedLogKey(em, keypair.publicKey(), chosen);
  if (recorded === keypair.publicKey()) return;
  throw new LogKeyMismatch(
    `the database's bid log is signed by the log key ${recorded}, and this instance's (from ${file}) is ${keypair.publicKey()}: set LOG_SIGNING_SEED or LOG_KEY_FILE to the same seed on every instance sharing the database`,
  );
}
