import { Keypair } from '@stellar/stellar-sdk';
import { ConfigError, loadConfig } from '../../src/config';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (e) {
    caught = e;
  }
  if (!(caught instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(caught)}`);
  return caught;
}

/** The variables the message of a ConfigError names, one per line `  NAME: reason`. */
function named(err: ConfigError): string[] {
  return [...err.message.matchAll(/^\s+([A-Z_]+):/gm)].map((m) => m[1]).sort();
}

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.DATA_DIR).toBe('./.data');
    expect(config.JWT_TTL).toBe(3600);
    expect(config.SIGNATURE_WINDOW).toBe(300);
    expect(config.SIGNATURE_LEGACY).toBe(false);
    expect(config.HOST).toBe('0.0.0.0');
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.BODY_LIMIT).toBe(1024 * 1024);
    expect(config.MASTER_SEED).toBeUndefined();
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('reads the given values', () => {
    const seed = Keypair.random().secret();
    const config = loadConfig({ PORT: '3000', DATA_DIR: '/tmp/x', MASTER_SEED: seed, DATABASE_URL: 'postgres://u@h:5432/db' });
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe('/tmp/x');
    expect(config.MASTER_SEED).toBe(seed);
    expect(config.DATABASE_URL).toBe('postgres://u@h:5432/db');
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ PORT: '', DATA_DIR: '', MASTER_SEED: '', JWT_TTL: '', SIGNATURE_WINDOW: '', SIGNATURE_LEGACY: '' });
    expect(config.PORT).toBe(8080);
    expect(config.DATA_DIR).toBe('./.data');
    expect(config.MASTER_SEED).toBeUndefined();
    expect(config.JWT_TTL).toBe(3600);
    expect(config.SIGNATURE_WINDOW).toBe(300);
    expect(config.SIGNATURE_LEGACY).toBe(false);
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig({ HOME: '/root', PATH: '/bin' }).PORT).toBe(8080);
  });

  it.each([
    ['45', 45],
    ['30s', 30],
    ['15m', 900],
    ['2h', 7200],
    ['1d', 86400],
  ])('reads the duration %j as %i seconds', (value, seconds) => {
    expect(loadConfig({ JWT_TTL: value }).JWT_TTL).toBe(seconds);
    expect(loadConfig({ SIGNATURE_WINDOW: value }).SIGNATURE_WINDOW).toBe(seconds);
  });

  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('reads SIGNATURE_LEGACY=%j as %p', (value, expected) => {
    expect(loadConfig({ SIGNATURE_LEGACY: value }).SIGNATURE_LEGACY).toBe(expected);
  });

  it.each(['abc', '70000', '-1', '80.5'])('rejects PORT=%j naming PORT', (value) => {
    const err = configError({ PORT: value });
    expect(err).toBeInstanceOf(Error);
    expect(named(err)).toEqual(['PORT']);
  });

  it.each(['SABC', 'not a seed', Keypair.random().publicKey(), Keypair.random().secret().toLowerCase()])(
    'rejects MASTER_SEED=%j naming MASTER_SEED',
    (value) => {
      expect(named(configError({ MASTER_SEED: value }))).toEqual(['MASTER_SEED']);
    },
  );

  it.each(['yes', 'TRUE', 'on'])('rejects SIGNATURE_LEGACY=%j naming SIGNATURE_LEGACY', (value) => {
    expect(named(configError({ SIGNATURE_LEGACY: value }))).toEqual(['SIGNATURE_LEGACY']);
  });

  it.each(['15x', '1.5h', '-5', 'm', '15 m'])('rejects the duration %j naming the variable', (value) => {
    expect(named(configError({ JWT_TTL: value }))).toEqual(['JWT_TTL']);
    expect(named(configError({ SIGNATURE_WINDOW: value }))).toEqual(['SIGNATURE_WINDOW']);
  });

  it('names every bad variable at once', () => {
    const err = configError({ PORT: 'abc', MASTER_SEED: 'x', SIGNATURE_LEGACY: 'maybe', JWT_TTL: '2h' });
    expect(named(err)).toEqual(['MASTER_SEED', 'PORT', 'SIGNATURE_LEGACY']);
    expect(err.message.startsWith('Invalid configuration')).toBe(true);
  });

  it('takes TLOG_APPEND=off for the bench alone: a service in use always logs its bids', () => {
    expect(loadConfig({}).TLOG_APPEND).toBe('on');
    for (const NODE_ENV of [undefined, 'production', 'test', 'development']) {
      const err = configError({ TLOG_APPEND: 'off', NODE_ENV });
      expect(named(err)).toEqual(['TLOG_APPEND']);
    }
    expect(loadConfig({ TLOG_APPEND: 'off', NODE_ENV: 'bench' }).TLOG_APPEND).toBe('off');
  });

  it('takes a public key as LOG_KEY_REPLACES, never a seed', () => {
    const key = Keypair.random();
    expect(loadConfig({ LOG_KEY_REPLACES: key.publicKey() }).LOG_KEY_REPLACES).toBe(key.publicKey());
    expect(named(configError({ LOG_KEY_REPLACES: key.secret() }))).toEqual(['LOG_KEY_REPLACES']);
  });
});
