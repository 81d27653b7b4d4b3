import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { checkLog } from '../../src/cli/tlog-check';
import { encodeReceipt, type Receipt } from '../../src/modules/bidlog';
import { witnessVkey } from '../../src/modules/bidlog/tlog.cosign';
import { leafHash } from '../../src/modules/bidlog/tlog.merkle';
import { startTestApp, type TestApp } from '../helpers/app';
import { bidForReceipt } from '../bidlog/receipt.helpers';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { startFrontProxy, type FrontProxy } from '../helpers/front-proxy';
import { createLot } from '../helpers/lots';
import { exec, type Run } from '../helpers/process';
import { FREE_LOT, join } from '../trading/trading.helpers';

// Found by an outside test: the verifier, the witness and the monitor kept what they saw of a log
// by the name the log gives itself (its origin). The operator rewrote history, restarted with
// another LOG_ORIGIN and the same key, and all three took the renamed log for a new one: exit 0,
// with their old state, a quorum of witnesses and the anchor required. They now keep it by the
// log's URL, which stays the same across the restart (a front here, as a proxy or DNS would be).
const ORIGIN = 'auction.local/bid-log';
const RENAMED = 'auction.example/bids';
const w1 = Keypair.random();
const W1 = 'w1.example.org';
const logSeed = Keypair.random();

let db: TestDatabase;
let t: TestApp;
let front: FrontProxy;
let bidders: CreatedAccount[];
let lotId: string;
let receipt: Receipt;
const work = mkdtempSync(path.join(tmpdir(), 'renamed-log-'));
const file = (name: string) => path.join(work, name);

const boot = (env: Record<string, string>) => startTestApp({ LOG_SIGNING_SEED: logSeed.secret(), LOG_WITNESSES: witnessVkey(W1, w1), ...env }, db);
const checkpoint = (app: TestApp) => app.app.services.transparencyLog.checkpointNow({ em: app.orm.em.fork() });
const cli = (script: string, args: string[]): Promise<Run> =>
  exec(process.execPath, [`dist/cli/${script}.js`, front.url, ...args], { PATH: process.env.PATH, DATA_DIR: work });
const witness = () => cli('witness', ['--key', file('w1.seed'), '--name', W1, '--state', file('witness.json')]);
const monitor = () => cli('monitor', ['--once', '--state', file('monitor.json')]);
const verifier = (more: object = {}) => checkLog(front.url, { statePath: file('verifier.json'), lotId, ...more });
const fails = (run: Run) => [run.code, run.stdout.split('\n').filter((l) => /^(FAIL|INCONSISTENT) /.test(l))];

/** The operator, with the database and the log's key, lowers the top bid in the log and forgets every checkpoint and co-signature. */
async function rewriteHistory(): Promise<void> {
  const conn = t.orm.em.fork().getConnection();
  const [top] = await conn.execute(`select idx, data from tlog_leaves where lot_id = ? and kind = 'bid' order by idx desc limit 1`, [lotId]);
  const data = (top.data as string).replace(/"amount":"[\d.]+"/, '"amount":"1.00"');
  await conn.execute(`update tlog_leaves set data = ?, hash = decode(?, 'hex') where idx = ?`, [data, leafHash(Buffer.from(data)).toString('hex'), top.idx]);
  for (const table of ['tlog_nodes', 'tlog_cosignatures', 'tlog_witnessed', 'tlog_checkpoints']) await conn.execute(`delete from ${table}`);
  await conn.execute('update tlog_tree set integrated = 0');
}

/** Closes the app and serves the same database again, at the same URL, with `env`. */
async function restart(env: Record<string, string>): Promise<void> {
  await t.close();
  t = await boot(env);
  await checkpoint(t);
}

beforeAll(async () => {
  writeFileSync(file('w1.seed'), `${w1.secret()}\n`, { mode: 0o600 });
  db = await createTestDatabase();
  t = await boot({});
  front = await startFrontProxy(() => t.port);
  const platform = await createPlatform(t);
  bidders = [await createAccount(t, platform), await createAccount(t, platform)];
  lotId = (await createLot(t, platform, FREE_LOT)).id;
  for (const b of bidders) await join(t, b.keypair, lotId);
  await bidForReceipt(t, bidders[0].keypair, lotId, '1000');
  receipt = await bidForReceipt(t, bidders[1].keypair, lotId, '1100');
  writeFileSync(file('receipt.txt'), encodeReceipt(receipt));
  await checkpoint(t);
  // What each outsider saw of the genuine log, kept in its state.
  expect((await witness()).code).toBe(0);
  expect((await monitor()).code).toBe(0);
  expect(await verifier()).toMatchObject({ ok: true });
}, 60_000);

afterAll(async () => {
  await front?.close();
  await t?.close();
  await db?.drop();
});

describe('a log that renames itself after rewriting its history', () => {
  it('is refused by the witness, reported by the monitor and fails the verifier that saw it before; the receipt names the old log', async () => {
    await rewriteHistory();
    await restart({ LOG_ORIGIN: RENAMED });
    const renamed = (size: number) => `the log now names itself ${RENAMED}, not ${ORIGIN} as in the checkpoint of size ${size} seen before: a checkpoint of another log, or its history rewritten under a new name`;
    const size = Number((await t.client.get('/log/checkpoint')).body.data.attributes.size);

    expect(fails(await witness())).toEqual([1, [`FAIL refusing to co-sign: ${renamed(size)}`]]);
    expect(fails(await monitor())).toEqual([1, [`INCONSISTENT ${renamed(size)}`]]);
    const verified = await verifier();
    expect(verified).toMatchObject({ ok: false, problems: expect.arrayContaining([renamed(size)]) });
    // A verifier that kept nothing but the bidder's receipt.
    const fresh = await checkLog(front.url, { receipt });
    expect(fresh.problems).toContain(`the receipt was signed for the log ${ORIGIN}, the checkpoint is the log ${RENAMED}'s: a receipt of another log, or a log that renamed itself`);
    // And the refusals hold: the state still names the log as it was.
    expect(fails(await witness())[0]).toBe(1);
  }, 60_000);

  it('with a new key as well, fails on the key the verifier, the witness and the monitor trusted before', async () => {
    await rewriteHistory();
    await t.orm.em.fork().getConnection().execute('delete from tlog_keys');
    const other = Keypair.random();
    await t.close();
    t = await startTestApp({ LOG_SIGNING_SEED: other.secret(), LOG_WITNESSES: witnessVkey(W1, w1), LOG_ORIGIN: `${RENAMED}-2` }, db);
    await checkpoint(t);
    const replaced = `the log's key history no longer names ${logSeed.publicKey()}, trusted here before, but ${other.publicKey()}: its key was replaced, not rotated; pass --log-key to trust another key`;
    expect(fails(await witness())).toEqual([1, [`FAIL refusing to co-sign: ${replaced}`]]);
    expect(fails(await monitor())).toEqual([1, [`INCONSISTENT ${replaced}`]]);
    expect(await verifier()).toMatchObject({ ok: false, problems: [replaced] });
  }, 60_000);
});
