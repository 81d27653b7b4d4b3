import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { recordLogKey } from '../../src/modules/bidlog';
import { parseNote, signNote, type ParsedNote } from '../../src/modules/bidlog/tlog.note';
import { createLot } from '../helpers/lots';
import { exec, type Run } from '../helpers/process';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT } from '../trading/trading.helpers';

// Which log keys `npm run verify-bids` trusts when it is given none (docs/bid-log.md, "Verifying"):
// the history GET /log/keys serves, on first use only; the operator, who holds the database, may
// serve any list afterwards.
const world = appWithPlatform();
const db = () => world.t.orm.em.fork().getConnection();
const replacement = Keypair.random();

const verify = (dataDir: string, lotId: string, ...args: string[]): Promise<Run> =>
  exec(process.execPath, ['dist/cli/verify-bids.js', world.t.baseUrl, lotId, ...args], { PATH: process.env.PATH, DATA_DIR: dataDir });
const fails = (run: Run) => run.stdout.split('\n').filter((l) => l.startsWith('FAIL '));

/** A lot in the log, checkpointed, and the log's key recorded as a start records it; answers the lot and the key. */
async function loggedLot(): Promise<{ lotId: string; key: string }> {
  const lot = await createLot(world.t, world.platform, FREE_LOT);
  await world.t.app.services.transparencyLog.checkpointNow({ em: world.t.orm.em.fork() });
  const key = world.t.app.services.transparencyLog.signer;
  await db().execute('delete from tlog_keys');
  await recordLogKey(world.t.orm.em.fork(), key, null);
  return { lotId: lot.id, key };
}

const resigned: { size: number; note: string; signer: string }[] = [];

afterEach(async () => {
  for (const r of resigned.splice(0)) await db().execute('update tlog_checkpoints set note = ?, signer = ? where size = ?', [r.note, r.signer, r.size]);
});

/** The operator signs the latest checkpoint anew with `key`, as an instance started with that key would (undone after the test). */
async function resignLatest(key: Keypair): Promise<void> {
  const [latest] = await db().execute('select size, note, signer from tlog_checkpoints order by size desc limit 1');
  resigned.push({ size: latest.size, note: latest.note, signer: latest.signer });
  const parsed = parseNote(latest.note as string) as ParsedNote;
  await db().execute('update tlog_checkpoints set note = ?, signer = ? where size = ?', [signNote(parsed.body, parsed.checkpoint.origin, key), key.publicKey(), latest.size]);
}

describe('verify-bids without --log-key', () => {
  it('trusts the served key history on first use, keeps it, and fails in one line on a key replaced without a rotation', async () => {
    const { lotId, key } = await loggedLot();
    const dir = mkdtempSync(path.join(tmpdir(), 'tlog-keys-'));
    const first = await verify(dir, lotId);
    expect([first.code, fails(first)]).toEqual([0, []]);
    expect(first.stdout).toContain(`(trusting on first use the log keys ${key} from GET /log/keys, kept in the state file`);
    expect(JSON.parse(readFileSync(path.join(dir, 'verify-bids-state.json'), 'utf8'))[world.t.baseUrl]).toMatchObject({ origin: 'auction.local/bid-log', keys: [key] });

    // The operator swaps the log's key for another and signs with it, the history naming only the new one.
    await db().execute('update tlog_keys set public_key = ?', [replacement.publicKey()]);
    await resignLatest(replacement);
    const swapped = await verify(dir, lotId);
    expect(swapped.code).toBe(1);
    expect(fails(swapped)).toEqual([
      `FAIL the log's key history no longer names ${key}, trusted here before, but ${replacement.publicKey()}: its key was replaced, not rotated; pass --log-key to trust another key`,
    ]);
  }, 60_000);

  it('makes the folder of its state file, and refuses a state file that is no JSON in one line', async () => {
    const { lotId } = await loggedLot();
    const missing = path.join(mkdtempSync(path.join(tmpdir(), 'tlog-keys-')), 'not', 'yet');
    const first = await verify(missing, lotId);
    expect([first.code, fails(first), first.stderr]).toEqual([0, [], '']);
    expect(existsSync(path.join(missing, 'verify-bids-state.json'))).toBe(true);

    writeFileSync(path.join(missing, 'verify-bids-state.json'), '{"auction.local/bid-log": {"size": 3,');
    const corrupt = await verify(missing, lotId);
    expect(corrupt.code).not.toBe(0);
    expect(corrupt.stderr.trim().split('\n')).toEqual([expect.stringContaining('verify-bids-state.json holds no state this verifier wrote')]);
  }, 60_000);

  it('fails on a rotation the verifier did not confirm, and follows it once given both keys with --log-key', async () => {
    const { lotId, key } = await loggedLot();
    const dir = mkdtempSync(path.join(tmpdir(), 'tlog-keys-'));
    expect((await verify(dir, lotId)).code).toBe(0);

    await recordLogKey(world.t.orm.em.fork(), replacement.publicKey(), key);
    await resignLatest(replacement);
    const rotated = await verify(dir, lotId);
    expect(rotated.code).toBe(1);
    expect(fails(rotated)).toEqual([
      `FAIL the log's key history names ${replacement.publicKey()}, which this verifier never trusted: a rotation only the log announces proves nothing; confirm it with the operator, then pass --log-key once for every key to trust`,
    ]);

    const confirmed = await verify(dir, lotId, '--log-key', key, '--log-key', replacement.publicKey());
    expect([confirmed.code, fails(confirmed)]).toEqual([0, []]);
    const after = await verify(dir, lotId);
    expect([after.code, fails(after)]).toEqual([0, []]);
    // Four command-line processes, each loading its modules afresh: 30 s ran out once at load 9.
  }, 60_000);
});
