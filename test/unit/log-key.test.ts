import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { loadLogKeypair, LogKeyError } from '../../src/auth/log-key';
import { logger } from '../../src/core/logger';

const master = Keypair.random();
const dir = () => mkdtempSync(path.join(tmpdir(), 'log-key-'));

describe("the transparency log's key", () => {
  it('is generated once into DATA_DIR/log.seed, mode 0600, and read back', () => {
    const DATA_DIR = dir();
    const first = loadLogKeypair({ DATA_DIR, LOG_KEY_FILE: undefined, LOG_SIGNING_SEED: undefined }, master, logger);
    expect(statSync(path.join(DATA_DIR, 'log.seed')).mode & 0o777).toBe(0o600);
    expect(loadLogKeypair({ DATA_DIR, LOG_KEY_FILE: undefined, LOG_SIGNING_SEED: undefined }, master, logger).publicKey()).toBe(first.publicKey());
  });

  it('lives where LOG_KEY_FILE says, outside DATA_DIR', () => {
    const file = path.join(dir(), 'elsewhere.seed');
    const key = Keypair.random();
    writeFileSync(file, `${key.secret()}\n`);
    expect(loadLogKeypair({ DATA_DIR: dir(), LOG_KEY_FILE: file, LOG_SIGNING_SEED: undefined }, master, logger).publicKey()).toBe(key.publicKey());
  });

  it('is never the master key, nor a new key in place of a damaged file', () => {
    expect(() => loadLogKeypair({ DATA_DIR: dir(), LOG_KEY_FILE: undefined, LOG_SIGNING_SEED: master.secret() }, master, logger)).toThrow(LogKeyError);
    const file = path.join(dir(), 'log.seed');
    writeFileSync(file, 'not a seed\n');
    expect(() => loadLogKeypair({ DATA_DIR: dir(), LOG_KEY_FILE: file, LOG_SIGNING_SEED: undefined }, master, logger)).toThrow(LogKeyError);
  });
});
