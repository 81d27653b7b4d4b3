import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Keypair } from '@stellar/stellar-sdk';
import type { Config } from '../config';
import type { Logger } from '../core/logger';
import { recordLogKey } from '../modules/bidlog';
import { StartRefusal } from '../start-refusal';

/** The log's key file holds no seed, or the log would sign with the master key. */
export class LogKeyError extends StartRefusal {}

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
 * Refuses a log key other than the one the database's log signs with now: instances sharing a
 * database must sign one log's checkpoints and receipts with one key. LOG_KEY_REPLACES, naming that
 * key, makes this instance's key the log's from now on (a rotation, docs/bid-log.md).
 */
export async function agreeOnLogKey(em: EntityManager, keypair: Keypair, config: Pick<Config, 'DATA_DIR' | 'LOG_KEY_FILE' | 'LOG_SIGNING_SEED' | 'LOG_KEY_REPLACES'>): Promise<void> {
  const current = await recordLogKey(em, keypair.publicKey(), config.LOG_KEY_REPLACES ?? null);
  if (current === keypair.publicKey()) return;
  const source = config.LOG_SIGNING_SEED ? 'LOG_SIGNING_SEED' : keyFile(config);
  throw new LogKeyError(
    `the database's bid log is signed by ${current}, and this instance's log key (from ${source}) is ${keypair.publicKey()}: give every instance sharing the database the log's key, or rotate it with LOG_KEY_REPLACES=${current} (docs/bid-log.md)`,
  );
}
