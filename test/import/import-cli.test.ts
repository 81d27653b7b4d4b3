import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Keypair } from '@stellar/stellar-sdk';
import { Lot, LotType } from '../../src/modules/lots/lots.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPlatform } from '../helpers/factories';
import { exec } from '../helpers/process';
import { feedLine, fixturePath, fixtureRecords } from './helpers';

let t: TestApp;
let platform: Keypair;
let dataDir: string;
const cli = (...args: string[]) =>
  exec(process.execPath, ['dist/cli/import-lots.js', ...args], {
    ...process.env,
    DATABASE_URL: t.config.DATABASE_URL,
    MASTER_SEED: t.master.secret(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  });

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  dataDir = mkdtempSync(path.join(tmpdir(), 'import-cli-'));
}, 120_000);
afterAll(() => t?.close());

describe('import:lots command', () => {
  it('imports a feed end to end for the master account and prints the summary', async () => {
    const records = fixtureRecords('partnerB');
    const run = await cli('--source', 'partnerB', fixturePath('partnerB'));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Imported partnerB lots from ${fixturePath('partnerB')}: ${records.length} lines`);
    expect(run.stdout).toMatch(new RegExp(`created: +${records.length}\\n`));
    expect(run.stdout).toMatch(/updated: +0\n/);
    expect(run.stdout).toMatch(/rejected: +0\n/);
    // Not a terminal: a progress line every 1,000 lines.
    expect(run.stderr).toContain('read 1000 lines');
    expect(await t.orm.em.fork().count(Lot, { lotType: LotType.PartnerB, organizerId: t.master.publicKey() })).toBe(records.length);

    const again = await cli('--source', 'partnerB', fixturePath('partnerB'));
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/created: +0\n/);
    expect(again.stdout).toMatch(new RegExp(`unchanged: +${records.length}\\n`));
  }, 60_000);

  it('lists the rejected lines, the first 50 of them, and still exits 0', async () => {
    const file = path.join(dataDir, 'bad.jsonl');
    const bad = Array.from({ length: 60 }, (_, i) => feedLine({ lot_id: 71000000 + i }, { maker: undefined }));
    writeFileSync(file, [feedLine({ lot_id: 70999999 }), ...bad].join('\n'));
    const run = await cli('--source', 'partnerA', '--platform', platform.publicKey(), '--batch', '10', file);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/created: +1\n/);
    expect(run.stdout).toMatch(/rejected: +60\n/);
    expect(run.stdout).toContain('    line 2: details.maker is required\n');
    expect(run.stdout).toContain('    line 51: details.maker is required\n');
    expect(run.stdout).not.toContain('line 52:');
    expect(run.stdout).toContain('… and 10 more rejected lines');
    expect(await t.orm.em.fork().findOneOrFail(Lot, { lotType: LotType.PartnerA, sourceLotId: '70999999' })).toMatchObject({ organizerId: platform.publicKey() });
  }, 30_000);

  it.each([
    ['no --source', () => [fixturePath('partnerA')], /--source is required/],
    ['an unknown source', () => ['--source', 'partnerC', fixturePath('partnerA')], /--source must be one of partnerA, partnerB/],
    ['no file', () => ['--source', 'partnerA'], /FILE is required/],
    ['a missing file', () => ['--source', 'partnerA', '/nonexistent/feed.jsonl'], /no such file/],
    ['a malformed --platform', () => ['--source', 'partnerA', '--platform', 'me', fixturePath('partnerA')], /--platform must be an account id/],
    ['an unknown option', () => ['--source', 'partnerA', '--dry-run', fixturePath('partnerA')], /Unknown option '--dry-run'/],
    ['a bad --batch', () => ['--source', 'partnerA', '--batch', '0', fixturePath('partnerA')], /--batch must be an integer/],
    ['a platform that is no account', () => ['--source', 'partnerA', '--platform', 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7', fixturePath('partnerA')], /is not a platform account/],
  ])('exits 2 with the usage on %s', async (_name, args, message) => {
    const before = await t.orm.em.fork().count(Lot, { lotType: LotType.PartnerA });
    const run = await cli(...args());
    // Both at once, so that an unexpected exit shows what the command wrote (CI, 29 November: 1 instead of 2, once).
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(message) });
    expect(run.stderr).toContain('usage: npm run import:lots');
    expect(await t.orm.em.fork().count(Lot, { lotType: LotType.PartnerA })).toBe(before);
  }, 30_000);
});
