import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { checkLog } from '../../src/cli/tlog-check';
import { cosignatureLine, parseWitnessKey, witnessVkey, type WitnessKey } from '../../src/modules/bidlog/tlog.cosign';
import { checkpointBody, parseNote, signNote, type ParsedNote } from '../../src/modules/bidlog/tlog.note';
import { bidForReceipt } from '../bidlog/receipt.helpers';
import { startFrontProxy, type Canned, type FrontProxy, type Route } from '../helpers/front-proxy';
import { createLot } from '../helpers/lots';
import { exec, ROOT, type Run } from '../helpers/process';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';

// Found by an outside test: what a log shows one client and not the others. A verifier shown a
// fork of its own checkpoint, beside the genuine history that is anchored and co-signed, checked
// the anchor and the quorum on the genuine checkpoint and never linked the two (exit 0); and a log
// that served the same page of its entries or checkpoints again held verify-bids and the monitor
// in their loops forever, silent.
const w1 = Keypair.random();
const W1 = 'w1.example.org';
const logSeed = Keypair.random();
const world = appWithPlatform({ accounts: 2, env: { LOG_SIGNING_SEED: logSeed.secret(), LOG_WITNESSES: witnessVkey(W1, w1) } });
const checkpoint = () => world.t.app.services.transparencyLog.checkpointNow({ em: world.t.orm.em.fork() });
const anchor = () => world.t.app.services.logAnchors.anchorPending(world.t.orm.em.fork());
const fronts: FrontProxy[] = [];

async function front(route: (url: URL) => Canned | null | Promise<Canned | null>): Promise<string> {
  const proxy = await startFrontProxy((async (req) => (await route(new URL(req.url ?? '/', 'http://front'))) ?? world.t.port) as Route);
  fronts.push(proxy);
  return proxy.url;
}
afterAll(() => Promise.all(fronts.map((f) => f.close())));

const get = async (target: string) => {
  const res = await world.t.client.get(target);
  expect(res.status).toBe(200);
  return res.body;
};

async function lotWithBids(...amounts: string[]): Promise<string> {
  const lot = await createLot(world.t, world.platform, FREE_LOT);
  for (const a of world.accounts) await join(world.t, a.keypair, lot.id);
  for (const [i, amount] of amounts.entries()) await bidForReceipt(world.t, world.accounts[i % 2].keypair, lot.id, amount);
  return lot.id;
}

const bounded = (script: string, base: string, args: string[], dataDir: string): Promise<Run> =>
  exec('timeout', ['30', process.execPath, `dist/cli/${script}.js`, base, ...args], { PATH: process.env.PATH, DATA_DIR: dataDir });

describe('a fork shown to one verifier beside the anchored and co-signed history', () => {
  it('fails the verifier that requires the anchor or a quorum: the genuine checkpoint does not extend the fork', async () => {
    const lotId = await lotWithBids('1000', '1100');
    await checkpoint();
    const forkedAt = (await get('/log/checkpoint')).data.attributes;
    await bidForReceipt(world.t, world.accounts[0].keypair, lotId, '1200');
    await checkpoint();
    expect(await anchor()).toBeGreaterThan(0);
    const genuine = (await get('/log/checkpoint')).data.attributes;
    const { body } = parseNote(genuine.note) as ParsedNote;
    expect((await world.t.client.post('/log/cosign', { data: { type: 'cosignatures', attributes: { note: `${body}\n${cosignatureLine(W1, w1, body, Math.floor(Date.now() / 1000))}` } } })).status).toBe(200);

    // The fork: the size before the last bid, another root, signed with the log's own key; served
    // to this verifier as the latest checkpoint, while the anchored and co-signed ones stay genuine.
    const { origin } = (parseNote(forkedAt.note) as ParsedNote).checkpoint;
    const note = signNote(checkpointBody({ origin, size: Number(forkedAt.size), root: randomBytes(32) }), origin, logSeed);
    const forked = { ...forkedAt, note, root_hash: (parseNote(note) as ParsedNote).checkpoint.root.toString('base64'), anchor: null };
    const base = await front((url) => (url.pathname === '/log/checkpoint' && url.search === '' ? { status: 200, body: { data: { type: 'checkpoints', id: String(forkedAt.size), attributes: forked } } } : null));

    const notLinked = `the log rewrote its history: the checkpoint of size ${genuine.size} is not consistent with the one of size ${forkedAt.size} seen before`;
    const outside = { networkPassphrase: world.t.config.NETWORK_PASSPHRASE };
    const anchored = await checkLog(base, { logKeys: [logSeed.publicKey()], outside: { ...outside, anchor: 'require' } });
    expect(anchored).toMatchObject({ ok: false, problems: [notLinked] });
    const quorum = await checkLog(base, { logKeys: [logSeed.publicKey()], outside: { ...outside, witnesses: [parseWitnessKey(witnessVkey(W1, w1)) as WitnessKey], quorum: 1 } });
    expect(quorum.problems).toContain(notLinked);
    // The same verifier on the genuine log: both hold.
    const held = await checkLog(world.t.baseUrl, { logKeys: [logSeed.publicKey()], outside: { ...outside, anchor: 'require' } });
    expect(held).toMatchObject({ ok: true, notes: expect.arrayContaining([expect.stringMatching(/^the checkpoint of size \d+ is anchored in ledger \d+/)]) });
  }, 60_000);
});

describe('a log that serves the same page again', () => {
  it('stops verify-bids: at the checkpoint it checks against, and at a leaf listed out of order', async () => {
    const lotId = await lotWithBids('1000');
    await checkpoint();
    const page = (index: (i: number) => number) => ({ status: 200, body: { data: Array.from({ length: 100 }, (_, i) => ({ type: 'log_entries', id: String(index(i)), attributes: { leaf_index: index(i), leaf_hash: randomBytes(32).toString('base64'), data: '{}' } })) } });
    const serving = (answer: Canned) => front((url) => (url.pathname === '/log/entries' && url.searchParams.has('lot_id') ? answer : null));
    const run = async (base: string) => bounded('verify-bids', base, [lotId, '--log-key', logSeed.publicKey()], mkdtempSync(path.join(tmpdir(), 'log-views-')));

    // The same full page whatever is asked: read up to the checkpoint's size, then judged.
    const again = await run(await serving(page((i) => i)));
    expect([again.code, again.stdout.trim().split('\n').at(-1)]).toEqual([1, 'NOT VERIFIED']);
    expect(again.stdout).toMatch(/^FAIL leaf 0's text does not hash to its hash$/m);
    const backwards = await run(await serving(page(() => 0)));
    expect([backwards.code, backwards.stderr.trim()]).toEqual([1, "GET /log/entries listed leaf 0 when asked for the lot's leaves from 1: the log lists its entries out of order"]);
  }, 60_000);

  it('stops the monitor with an INCONSISTENT line instead of holding it forever', async () => {
    const lotId = await lotWithBids('1000');
    await checkpoint();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'log-views-'));
    const state = path.join(dataDir, 'monitor.json');
    expect((await bounded('monitor', world.t.baseUrl, ['--once', '--state', state], dataDir)).code).toBe(0);
    const seen = Number((await get('/log/checkpoint')).data.attributes.size);
    const page = await get(`/log/checkpoints?from=${seen}&to=${seen}`);
    await bidForReceipt(world.t, world.accounts[1].keypair, lotId, '1100');
    await checkpoint();
    // The state names the genuine log's URL: kept under the front's, which serves the same page whatever is asked.
    const base = await front((url) => (url.pathname === '/log/checkpoints' ? { status: 200, body: page } : null));
    writeFileSync(state, JSON.stringify({ [base]: Object.values(JSON.parse(readFileSync(state, 'utf8')))[0] }));
    const run = await bounded('monitor', base, ['--once', '--state', state], dataDir);
    const head = Number((await get('/log/checkpoint')).data.attributes.size);
    expect([run.code, run.stdout.split('\n').filter((l) => l.startsWith('INCONSISTENT'))]).toEqual([1, [`INCONSISTENT the log listed the checkpoint of size ${seen} when asked for sizes ${seen + 1} to ${head}`]]);
  }, 60_000);
});

describe('the commands, turned away', () => {
  it('a witness whose co-signature the log refuses keeps no state: it co-signed nothing', async () => {
    await lotWithBids('1000');
    await checkpoint();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'log-views-'));
    const keyFile = path.join(dataDir, 'stranger.seed');
    writeFileSync(keyFile, `${Keypair.random().secret()}\n`, { mode: 0o600 });
    const state = path.join(dataDir, 'witness.json');
    const run = await bounded('witness', world.t.baseUrl, ['--key', keyFile, '--name', 'stranger.example.org', '--state', state], dataDir);
    expect([run.code, run.stdout]).toEqual([1, expect.stringMatching(/^FAIL the log refused the co-signature: 403 witness_unknown /)]);
    expect(existsSync(state)).toBe(false);
  });

  it('by a reader that stopped reading (| head): the command runs to its exit code, without a stack', async () => {
    const lotId = await lotWithBids('1000');
    await checkpoint();
    const child = spawn(process.execPath, ['dist/cli/verify-bids.js', world.t.baseUrl, lotId, '--log-key', logSeed.publicKey()], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'log-views-')) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader is gone before the command writes its first line: every write of it meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect([code, stderr]).toEqual([0, '']);
  });
});
