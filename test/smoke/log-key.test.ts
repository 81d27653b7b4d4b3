import { existsSync } from 'node:fs';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { sharedDatabase } from '../helpers/shared-database';
import { untilServing } from './launch';

/** Instances sharing one database sign one transparency log with one key (docs/bid-log.md, "The log's key"). */
const master = Keypair.random().secret();
const { instance } = sharedDatabase('log-key-', () => ({ MASTER_SEED: master }));

describe("the log's key on a shared database", () => {
  it('refuses a second instance with another log key in one line, takes a rotation that names the current key, and never takes a retired key back', async () => {
    const first = Keypair.random();
    const second = Keypair.random();
    const a = await instance({ LOG_SIGNING_SEED: first.secret() });
    await untilServing(a, 120_000);

    const b = await instance({ LOG_SIGNING_SEED: second.secret() });
    expect(await b.exited).toBe(1);
    expect(b.output()).toBe(
      `Cannot start: the database's bid log is signed by ${first.publicKey()}, and this instance's log key (from LOG_SIGNING_SEED) is ${second.publicKey()}: give every instance sharing the database the log's key, or rotate it with LOG_KEY_REPLACES=${first.publicKey()} (docs/bid-log.md)\n`,
    );

    const rotated = await instance({ LOG_SIGNING_SEED: second.secret(), LOG_KEY_REPLACES: first.publicKey() });
    await untilServing(rotated, 120_000);
    const keys = (await rotated.client.get('/log/keys')).body.data.map((k: { attributes: { public_key: string; until: string | null } }) => k.attributes);
    expect(keys).toEqual([
      // The rotation is the log's first leaf: the first key's period ends before it, the second's begins with it.
      { public_key: first.publicKey(), since: expect.any(String), until: expect.any(String), from_size: 0, to_size: 0, leaf_index: null },
      { public_key: second.publicKey(), since: expect.any(String), until: null, from_size: 0, to_size: null, leaf_index: 0 },
    ]);

    const back = await instance({ LOG_SIGNING_SEED: first.secret(), LOG_KEY_REPLACES: second.publicKey() });
    expect(await back.exited).toBe(1);
    expect(back.output()).toMatch(/^Cannot start: the database's bid log is signed by G[A-Z2-7]{55}, and this instance's log key \(from LOG_SIGNING_SEED\) is G[A-Z2-7]{55}: .*\n$/);
    expect(back.output()).not.toMatch(/S[A-Z2-7]{55}/);
  }, 360_000);

  it('leaves no log.seed behind when the key it generated is refused, so the next start from that DATA_DIR is not refused for it', async () => {
    const a = await instance({ LOG_SIGNING_SEED: Keypair.random().secret() });
    await untilServing(a, 120_000);
    const b = await instance({});
    expect(await b.exited).toBe(1);
    expect(b.output()).toMatch(/^Cannot start: the database's bid log is signed by G[A-Z2-7]{55}, and this instance's log key \(from \S+log\.seed\) is G[A-Z2-7]{55}: .*\n$/);
    expect(existsSync(path.join(b.dataDir, 'log.seed'))).toBe(false);
  }, 240_000);
});
