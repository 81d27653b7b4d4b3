import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { UsageError, userPath } from './run';

/** Key files hold a secret seed on one line, mode 0600, like DATA_DIR/master.seed. */
export const keysDir = (dataDir: string) => path.resolve(dataDir, 'keys');

/** The key file of `name` in `dir`: `dir/alice.key`. */
export const keyFileIn = (dir: string, name: string) => path.join(dir, `${name}.key`);

export function writeKeyFile(dir: string, name: string, keypair: Keypair): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = keyFileIn(dir, name);
  // Removed first, so that the file is created with its mode rather than keeping an old one.
  rmSync(file, { force: true });
  writeFileSync(file, `${keypair.secret()}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}

export function readKeyFile(file: string): Keypair {
  try {
    return Keypair.fromSecret(readFileSync(file, 'utf8').trim());
  } catch {
    throw new UsageError(`${file} is no key file (a secret seed S… on one line)`);
  }
}

/** A key file's path, or the name of one in `dir` (`alice` for `dir/alice.key`). */
export function keyFileOf(given: string, dir: string): string {
  const file = userPath(given);
  if (existsSync(file)) return file;
  if (!/^[\w-]+$/.test(given)) throw new UsageError(`${given}: no such key file (${file})`);
  const named = keyFileIn(dir, given);
  if (existsSync(named)) return named;
  throw new UsageError(`${given}: no such key file (nor ${named})`);
}

/**
 * Moves the key files of `names` out of `dir` into a folder of their own beside them, and answers
 * it: keys that a new run would replace may still be the only way into accounts the service has.
 */
export function setAside(dir: string, names: readonly string[]): string {
  const aside = path.join(dir, `earlier-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(aside, { mode: 0o700 });
  for (const name of names) renameSync(keyFileIn(dir, name), keyFileIn(aside, name));
  return aside;
}
