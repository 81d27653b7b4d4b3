import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import Decimal from 'decimal.js';
import { startTestApp, type TestApp } from '../helpers/app';
import { exec, ROOT, type Run } from '../helpers/process';
import { AccountType, createPlatform } from '../helpers/factories';
import { startTime } from '../../src/instance-lock';

const NAMES = ['platform', 'admin', 'alice', 'bob'] as const;
const SECRET_SEED = /S[A-Z2-7]{55}/;

let t: TestApp;
let dataDir: string;
let demo: Run;
const keys = {} as Record<(typeof NAMES)[number], Keypair>;

/** The tools run as a user runs them: their own environment, DATA_DIR holding the service's master key. */
const tool = (name: 'demo' | 'call', ...args: string[]) => exec(process.execPath, [`dist/cli/${name}.js`, ...args], { PATH: process.env.PATH, DATA_DIR: dataDir });
const call = (...args: string[]) => tool('call', '--base', t.baseUrl, ...args);

/** `npm run demo` on a data directory of the test's own. */
const demoIn = (dir: string) => exec(process.execPath, ['dist/cli/demo.js', '--base', t.baseUrl], { PATH: process.env.PATH, DATA_DIR: dir });

/** A data directory of its own holding the service's master key, as `npm start` leaves it. */
function dataDirWithSeed(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'auction-demo-'));
  writeFileSync(path.join(dir, 'master.seed'), `${t.master.secret()}\n`, { mode: 0o600 });
  return dir;
}

const platformCount = async () => (await t.orm.em.fork().getConnection().execute('select count(*)::int as n from accounts where account_type = ?', [AccountType.Platform]))[0].n as number;

/** The status line and the JSON body that `npm run call` prints. */
function answer(run: Run): { status: string; body: any } {
  const [status, ...body] = run.stdout.split('\n');
  return { status, body: JSON.parse(body.join('\n')) };
}

/** The words of a shell command line as the demo prints it (plain words and single-quoted ones). */
const shellWords = (line: string) => [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]));

beforeAll(async () => {
  t = await startTestApp();
  dataDir = mkdtempSync(path.join(tmpdir(), 'auction-demo-'));
  // Where `npm start` keeps the master key it generates when MASTER_SEED is unset.
  writeFileSync(path.join(dataDir, 'master.seed'), `${t.master.secret()}\n`, { mode: 0o600 });
  demo = await tool('demo', '--base', t.baseUrl);
  if (demo.code !== 0) throw new Error(`npm run demo failed: ${demo.stderr}`);
  for (const name of NAMES) keys[name] = Keypair.fromSecret(readFileSync(path.join(dataDir, 'keys', `${name}.key`), 'utf8').trim());
}, 120_000);
afterAll(() => t?.close());

describe('npm run demo', () => {
  it('creates a platform, its admin and two users, keeps their keys in private key files and prints no secret', async () => {
    const types = { platform: 2, admin: 5, alice: 4, bob: 4 };
    for (const name of NAMES) {
      expect(statSync(path.join(dataDir, 'keys', `${name}.key`)).mode & 0o777).toBe(0o600);
      const account = await t.client.as(keys.platform).get(`/accounts/${keys[name].publicKey()}`);
      expect(account.status).toBe(200);
      expect(account.body.data.attributes).toMatchObject({ account_type: types[name], platform_id: keys.platform.publicKey() });
      expect(demo.stdout).toContain(keys[name].publicKey());
    }
    for (const output of [demo.stdout, demo.stderr]) {
      expect(output).not.toMatch(SECRET_SEED);
      for (const secret of [t.master.secret(), ...NAMES.map((n) => keys[n].secret())]) expect(output).not.toContain(secret);
    }
  });

  it('puts up lots of reference makers and models with public photos, paid deposits and bids', async () => {
    const res = await t.client.as(keys.admin).get(`/lots?filter[publisher]=${keys.platform.publicKey()}&include=bids&page[limit]=100`);
    expect(res.status).toBe(200);
    const lots: any[] = res.body.data;
    expect(lots.length).toBeGreaterThanOrEqual(5);
    expect(lots.map((l) => l.attributes.lot_type_str)).toEqual(expect.arrayContaining(['lot_type_eng', 'lot_type_no_auction']));

    const makers: any[] = (await t.client.get('/enums/makers')).body.data;
    for (const lot of lots) {
      const { maker, model, hd_img_links: photos } = lot.attributes.details;
      const models = makers.find((m) => m.id === maker)?.attributes.classes.flatMap((c: { models: string[] }) => c.models);
      expect(models).toContain(model);
      expect(photos).toHaveLength(1);
      expect(photos[0].startsWith(`${t.baseUrl}/documents/`)).toBe(true);
      const photo = await t.client.get(new URL(photos[0]).pathname);
      expect(photo.status).toBe(200);
      expect(photo.body.data.attributes).toMatchObject({ document_type: 'public', content_type: 'image/png' });
    }

    const bidders = new Set([keys.alice.publicKey(), keys.bob.publicKey()]);
    const bids: any[] = res.body.included.filter((r: { type: string }) => r.type === 'bids');
    const withBids = lots.filter((l) => bids.some((b) => String(b.attributes.lot_id) === l.id));
    expect(withBids.length).toBeGreaterThanOrEqual(3);
    for (const lot of withBids) {
      const onLot = bids.filter((b) => String(b.attributes.lot_id) === lot.id);
      expect(onLot.length).toBeGreaterThanOrEqual(2);
      for (const bid of onLot) expect(bidders.has(bid.attributes.account_id)).toBe(true);
      expect(lot.attributes.highest_bid).toBe(onLot.map((b) => b.attributes.amount).sort((a, b) => Number(b) - Number(a))[0]);
    }

    // The closed lot returned its loser's deposit; the open ones keep both paid.
    for (const lot of withBids.filter((l) => l.attributes.lot_state_str === 'lot_state_pending')) {
      const deposits = await t.client.as(keys.admin).get(`/deposits?filter[lot_id]=${lot.id}`);
      expect(deposits.status).toBe(200);
      expect(deposits.body.data.map((d: any) => [d.attributes.account_id, d.attributes.state_str]).sort()).toEqual(
        [...bidders].map((id) => [id, 'paid']).sort(),
      );
    }

    expect(demo.stdout).toContain(`${t.baseUrl}/graphql`);
    expect(demo.stdout).toMatch(new RegExp(`${t.baseUrl}/live/(${withBids.map((l) => l.id).join('|')})\\b`));
  });
  it('sets the platform rules before its lots, so that every lot follows them, and shows how to read a fee', async () => {
    const rules = await t.client.as(keys.admin).get(`/platforms/${keys.platform.publicKey()}/rules`);
    expect(rules.body.data.attributes).toMatchObject({ version: 1, extend_window: 120, extend_by: 120, max_extension_seconds: 1200, increments: expect.any(Array), buyer_fees: expect.any(Array), buying_power_multiple: '25' });
    const lots = await t.client.get(`/lots?filter[publisher]=${keys.platform.publicKey()}&page[limit]=100`);
    expect(lots.body.data.map((l: any) => l.attributes.rules_version)).toEqual(lots.body.data.map(() => 1));
    const line = /^Fee estimate: +npm run call -- (.+)$/m.exec(demo.stdout);
    expect(line).not.toBeNull();
    const estimate = await tool('call', ...shellWords(line![1]));
    expect(answer(estimate).body.data.attributes).toMatchObject({ rules_version: 1, buyer_fee: expect.stringMatching(/^\d+\.\d{2}$/) });
  });

  it('shows how to read a bidder\'s buying power: the multiple of its paid deposits, in EUR', async () => {
    const line = /^Buying power: +npm run call -- (.+)$/m.exec(demo.stdout);
    expect(line).not.toBeNull();
    const power = answer(await tool('call', ...shellWords(line![1])));
    expect(power.status).toMatch(/^200\b/);
    expect(power.body.data).toMatchObject({ type: 'buying_power', attributes: { multiple: '25', currency: 'EUR' } });
    const { deposits, limit } = power.body.data.attributes;
    expect(Number(deposits)).toBeGreaterThan(0);
    expect(limit).toBe((Number(deposits) * 25).toFixed(2));
  });

  it('puts a reserve on one lot: reserve_met for everyone, the amount for staff', async () => {
    const line = /^Reserve price: +lot #(\d+) has a hidden reserve of ([\d.]+) /m.exec(demo.stdout);
    expect(line).not.toBeNull();
    const [, lotId, amount] = line!;
    expect((await t.client.as(keys.admin).get(`/lots/${lotId}`)).body.data.attributes).toMatchObject({ reserve_met: false, reserve_price: amount });
    expect((await t.client.as(keys.alice).get(`/lots/${lotId}`)).body.data.attributes).toMatchObject({ reserve_met: false });
    expect((await t.client.as(keys.alice).get(`/lots/${lotId}`)).body.data.attributes).not.toHaveProperty('reserve_price');
  });

  it('refuses, saying how to fix it, where the master seed is not at hand', async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'auction-demo-'));
    const run = await exec(process.execPath, ['dist/cli/demo.js', '--base', t.baseUrl], { PATH: process.env.PATH, DATA_DIR: elsewhere });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the service's master account is ${t.master.publicKey()}, and no seed found: set MASTER_SEED to its seed, or DATA_DIR`);
  });
});

describe('the saved search of the demo', () => {
  it('has matched the Toyotas the demo put up', async () => {
    const saved = await t.client.as(keys.alice).get(`/accounts/${keys.alice.publicKey()}/saved_searches`);
    expect(saved.body.data).toHaveLength(1);
    const notifications = await t.client.as(keys.alice).get('/notifications');
    const matched = notifications.body.data.filter((n: any) => n.attributes.type_str === 'saved_search_matched');
    expect(matched.length).toBeGreaterThanOrEqual(1);
    expect(demo.stdout).toMatch(/alice's search for Toyota matched [1-9]\d* lots/);
  });
});

describe('npm run verify-bids', () => {
  it('verifies the bid log of the lot the demo closed, and fails for a log made up', async () => {
    const line = /^Verify a bid log: +npm run verify-bids -- (\S+) (\d+)$/m.exec(demo.stdout);
    expect(line).not.toBeNull();
    const run = await exec(process.execPath, ['dist/cli/verify-bids.js', line![1], line![2], '--signer', t.master.publicKey()], { PATH: process.env.PATH, DATA_DIR: dataDir });
    expect(run.stdout).toContain('head signed by the master key');
    expect(run.stdout.trim().split('\n').pop()).toBe('OK');
    expect(run.code).toBe(0);
    const wrongKey = await exec(process.execPath, ['dist/cli/verify-bids.js', line![1], line![2], '--signer', Keypair.random().publicKey()], { PATH: process.env.PATH, DATA_DIR: dataDir });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stdout).toContain('NOT VERIFIED');
  });
});

describe('npm run call', () => {
  it('GET /lots: signs as the demo admin by default and prints the status and the body', async () => {
    const run = await call('GET', `/lots?filter[publisher]=${keys.platform.publicKey()}`);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`signed as ${keys.admin.publicKey()}`);
    const { status, body } = answer(run);
    expect(status).toBe('200 OK');
    expect(body.data.length).toBeGreaterThanOrEqual(5);
    expect(body.data.every((l: any) => l.attributes.publisher_id === keys.platform.publicKey())).toBe(true);
  });

  it('signs operations that need a signature, and exits 1 when the answer is an error', async () => {
    const signed = await call('GET', '/deposits');
    expect(signed.code).toBe(0);
    expect(answer(signed).status).toBe('200 OK');
    expect(answer(signed).body.data.length).toBeGreaterThan(0);

    const unsigned = await call('--unsigned', 'GET', '/deposits');
    expect(unsigned.code).toBe(1);
    expect(answer(unsigned)).toMatchObject({ status: '401 Unauthorized', body: { errors: [{ code: 'unauthenticated' }] } });

    const me = await call('--as', 'alice', 'POST', '/graphql', '{"query": "{ me { id accountType } }"}');
    expect(answer(me).body).toEqual({ data: { me: { id: keys.alice.publicKey(), accountType: 4 } } });
    for (const run of [signed, unsigned, me]) expect(run.stdout + run.stderr).not.toMatch(SECRET_SEED);
  });

  // npm runs the command in the project's folder: a path the user typed is from the folder they typed it in (INIT_CWD).
  it('reads a key file named from the folder the command was typed in', async () => {
    const fromKeys = { PATH: process.env.PATH, DATA_DIR: dataDir, INIT_CWD: path.join(dataDir, 'keys') };
    const me = await exec(process.execPath, ['dist/cli/call.js', '--base', t.baseUrl, '--as', 'alice.key', 'POST', '/graphql', '{"query": "{ me { id } }"}'], fromKeys);
    expect({ code: me.code, stderr: me.stderr }).toEqual({ code: 0, stderr: `signed as ${keys.alice.publicKey()} (${path.join(dataDir, 'keys', 'alice.key')})\n` });
    expect(answer(me).body).toEqual({ data: { me: { id: keys.alice.publicKey() } } });
  });

  it('runs the command the demo prints: a signed bid that outbids the leader', async () => {
    const line = /^Outbid as \w+: +npm run call -- (.+)$/m.exec(demo.stdout);
    expect(line).not.toBeNull();
    const args = shellWords(line![1]);
    const bid = JSON.parse(args[args.length - 1]).data.attributes;
    const run = await tool('call', ...args);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('204 No Content');
    const lot = await t.client.get(`/lots/${bid.lot_id}`);
    expect(lot.body.data.attributes.highest_bid).toBe(bid.amount);
  });

  it('answers a usage error with exit code 2 and the usage', async () => {
    const run = await call('FETCH', '/lots');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('METHOD must be one of');
    expect(run.stderr).toContain('usage: npm run call');
  });
});

/** The commands of README.md's shell blocks that talk to a running service: `npm run call` and curl. */
function readmeCommands(): string[][] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].replace(/\\\n\s*/g, ''));
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => shellWords(line))
    .map((words) => {
      const comment = words.findIndex((w) => w.startsWith('#'));
      return comment < 0 ? words : words.slice(0, comment);
    })
    .filter((words) => words.join(' ').startsWith('npm run call --') || words[0] === 'curl');
}

describe('a second npm run demo', () => {
  let second: Run;
  let lotsBefore: string[];
  const lotIds = async () => (await t.client.get(`/lots?page[limit]=100`)).body.data.map((l: { id: string }) => l.id);

  beforeAll(async () => {
    lotsBefore = await lotIds();
    second = await tool('demo', '--base', t.baseUrl);
  }, 120_000);

  it('shows the marketplace the first made, as it is now, and creates nothing: same accounts, key files and lots', async () => {
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^Demo marketplace on \S+, made by an earlier run and shown as it is now: nothing was created, the key files are unchanged$/m);
    for (const name of NAMES) {
      expect(readFileSync(path.join(dataDir, 'keys', `${name}.key`), 'utf8').trim()).toBe(keys[name].secret());
      expect(second.stdout).toContain(keys[name].publicKey());
    }
    expect(await lotIds()).toEqual(lotsBefore);
    expect(second.stdout).not.toMatch(SECRET_SEED);
    // The lots it lists are the first run's, with their bids as they stand now.
    expect([...second.stdout.matchAll(/^ {2}#(\d+)/gm)].map((m) => m[1])).toEqual([...demo.stdout.matchAll(/^ {2}#(\d+)/gm)].map((m) => m[1]));
  });

  it('prints commands for the lots as they stand now: the outbid is one step over the present highest bid, by the other bidder', async () => {
    const line = /^Outbid as (\w+): +npm run call -- (.+)$/m.exec(second.stdout);
    expect(line).not.toBeNull();
    const args = shellWords(line![2]);
    const bid = JSON.parse(args[args.length - 1]).data.attributes;
    const lot = (await t.client.get(`/lots/${bid.lot_id}?include=bids`)).body;
    const leader = lot.included.find((b: any) => b.type === 'bids' && b.attributes.amount === lot.data.attributes.highest_bid).attributes.account_id;
    expect(bid.amount).toBe(new Decimal(lot.data.attributes.highest_bid).plus(lot.data.attributes.min_step).toFixed(2));
    expect(keys[line![1] as 'alice' | 'bob'].publicKey()).not.toBe(leader);
    const power = /^Buying power: +npm run call -- (.+)$/m.exec(second.stdout);
    expect(answer(await tool('call', ...shellWords(power![1]))).status).toBe('200 OK');
  }, 60_000);

  it('leaves every example of README.md working, the bid on lot 1 as bob included', async () => {
    const commands = readmeCommands();
    expect(commands.length).toBeGreaterThanOrEqual(6);
    expect(commands.some((words) => words.includes('bob') && words.join(' ').includes('submitBid'))).toBe(true);
    for (const words of commands) {
      if (words[0] === 'curl') {
        expect(words.find((w) => w.includes('localhost'))).toMatch(/\/graphql$/);
        const res = await t.client.request('POST', '/graphql', { raw: Buffer.from(words[words.indexOf('-d') + 1]), contentType: 'application/json' });
        expect({ command: words.join(' '), status: res.status, errors: res.body.errors }).toEqual({ command: words.join(' '), status: 200, errors: undefined });
        continue;
      }
      const run = await call(...words.slice(4));
      const { status, body } = answer(run);
      // A mutation answers its refusals in its payload's userErrors, with 200 OK: the bid must have been placed.
      const userErrors = Object.values((body.data ?? {}) as Record<string, { userErrors?: unknown[] } | null>).flatMap((payload) => payload?.userErrors ?? []);
      expect({ command: words.join(' '), code: run.code, status, errors: body.errors, userErrors }).toEqual({ command: words.join(' '), code: 0, status: '200 OK', errors: undefined, userErrors: [] });
    }
  }, 120_000);
});

describe('npm run demo over key files it would replace', () => {
  /** A data directory of its own with the service's master key, and the demo's four key files as `platform` and three random keys. */
  function dataDirWithKeys(platform: Keypair): { dir: string; secrets: Record<string, string> } {
    const dir = dataDirWithSeed();
    mkdirSync(path.join(dir, 'keys'), { mode: 0o700 });
    const secrets: Record<string, string> = {};
    for (const name of NAMES) {
      secrets[name] = (name === 'platform' ? platform : Keypair.random()).secret();
      writeFileSync(path.join(dir, 'keys', `${name}.key`), `${secrets[name]}\n`, { mode: 0o600 });
    }
    return { dir, secrets };
  }
  /** The folder the run says it kept the key files in, holding each with its secret, private. */
  function keptIn(run: Run, dir: string, whose: RegExp, secrets: Record<string, string>): void {
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const said = new RegExp(`^The key files platform\\.key, admin\\.key, alice\\.key, bob\\.key in ${path.join(dir, 'keys')} were of (.+): they are kept in (\\S+), and the files in \\S+ now hold the keys above\\.$`, 'm').exec(run.stdout);
    expect(said?.[1]).toMatch(whose);
    const aside = said![2];
    expect(path.dirname(aside)).toBe(path.join(dir, 'keys'));
    for (const name of NAMES) {
      const file = path.join(aside, `${name}.key`);
      expect(readFileSync(file, 'utf8').trim()).toBe(secrets[name]);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(path.join(dir, 'keys', `${name}.key`), 'utf8').trim()).not.toBe(secrets[name]);
    }
  }

  // A run stopped by Ctrl-C after it made its platform: its key files were the only way into that platform's accounts.
  it('keeps those of a run that stopped before it finished, whose platform the service has, and says so', async () => {
    const platform = await createPlatform(t);
    const { dir, secrets } = dataDirWithKeys(platform);
    keptIn(await demoIn(dir), dir, new RegExp(`^a demo not found whole on this service \\(its platform ${platform.publicKey()} is on it\\)$`), secrets);
  }, 120_000);

  it('keeps those of a demo the service does not have, and says so', async () => {
    const { dir, secrets } = dataDirWithKeys(Keypair.random());
    keptIn(await demoIn(dir), dir, /^a demo whose platform key is missing, or whose platform this service does not have$/, secrets);
  }, 120_000);

  // Before, the four accounts were made first and their keys written after: a keys/ it could not write left them keyless.
  it('makes no account when it cannot write its key files, and says why in one line', async () => {
    const dir = dataDirWithSeed();
    writeFileSync(path.join(dir, 'keys'), 'not a folder');
    const accounts = () => t.orm.em.fork().getConnection().execute('select count(*)::int as n from accounts');
    const before = await accounts();
    const run = await demoIn(dir);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: `EEXIST: file already exists, mkdir '${path.join(dir, 'keys')}'\n` });
    expect(await accounts()).toEqual(before);
  }, 120_000);
});

describe('npm run demo beside another run on the same DATA_DIR', () => {
  const refusal = (dir: string, pid: number) => `another npm run demo (PID ${pid}) is filling ${dir} now: wait for it to end, then run npm run demo again to see what it made\n`;

  it('refuses while a live run holds DATA_DIR, in one line naming its PID, and makes nothing', async () => {
    const dir = dataDirWithSeed();
    // A run under way: its lock names a live process, this one, with its start time, as a run writes it.
    const lock = `${process.pid}\n${startTime(process.pid)}\n`;
    writeFileSync(path.join(dir, 'demo.pid'), lock);
    const before = await platformCount();
    const run = await demoIn(dir);
    expect(run).toEqual({ code: 1, stdout: '', stderr: refusal(dir, process.pid) });
    expect(await platformCount()).toBe(before);
    expect(existsSync(path.join(dir, 'keys'))).toBe(false);
    expect(readFileSync(path.join(dir, 'demo.pid'), 'utf8')).toBe(lock);
  }, 60_000);

  it('takes over the lock a killed run left, and lets it go when it ends', async () => {
    const dir = dataDirWithSeed();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(path.join(dir, 'demo.pid'), `${gone}\n`);
    const run = await demoIn(dir);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^Demo marketplace on \S+$/m);
    expect(existsSync(path.join(dir, 'demo.pid'))).toBe(false);
  }, 120_000);

  // Before, both made a marketplace, and the key files of the one that wrote last replaced the other's.
  it('two runs started together make one marketplace, whose keys the key files hold', async () => {
    const dir = dataDirWithSeed();
    const before = await platformCount();
    const runs = await Promise.all([demoIn(dir), demoIn(dir)]);
    expect(await platformCount()).toBe(before + 1);
    const made = runs.filter((r) => /^Demo marketplace on \S+$/m.test(r.stdout));
    expect(made).toHaveLength(1);
    for (const run of runs.filter((r) => r !== made[0])) {
      // The other waited for nothing: refused while the first ran, or shown what it made once it had ended.
      expect(run.code === 1 ? run.stderr : run.stdout).toMatch(run.code === 1 ? /^another npm run demo \(PID \d+\) is filling / : /made by an earlier run/);
    }
    const platform = Keypair.fromSecret(readFileSync(path.join(dir, 'keys', 'platform.key'), 'utf8').trim());
    expect(made[0].stdout).toContain(platform.publicKey());
    expect((await t.client.as(platform).get(`/accounts/${platform.publicKey()}`)).status).toBe(200);
  }, 120_000);
});
