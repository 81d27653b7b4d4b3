// `npm run import:lots -- --source partnerA [--platform G…] [--batch 500] FILE`: imports a JSON
// Lines feed of external-source lots (see src/modules/lots/lots.import.ts for the line format).
// Exit codes: 0 the file was read (rejected lines included), 2 usage errors, 1 anything else.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { MikroORM } from '@mikro-orm/postgresql';
import { rowsOf } from '../db/query';
import { sql } from '../db/sql';
import { readMasterKeypair } from '../auth/master';
import { ConfigError, loadConfig, type Config } from '../config';
import { DomainError } from '../core/errors';
import { ACCOUNT_ID } from '../core/ids';
import { logger } from '../core/logger';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded';
import { migrate, openDatabase } from '../db/orm';
import { AccountType } from '../core/account-type';
import type { AccountColumns } from '../core/account-columns';
import { DEFAULT_BATCH_SIZE, IMPORT_SOURCES, importLots, type ImportProgress, type ImportSource, type ImportSummary } from '../modules/lots';
import { userPath } from './run';

const USAGE = `usage: npm run import:lots -- --source partnerA|partnerB [--platform G…] [--batch N] FILE

  --source    the feed's source: partnerA (lot_type 2) or partnerB (lot_type 3)
  --platform  the platform account that publishes the lots (default: the master account)
  --batch     lots written per transaction (default ${DEFAULT_BATCH_SIZE})

The database is DATABASE_URL, else the embedded one under DATA_DIR (stop the service first).`;
const LISTED = 50;
const LINES_PER_REPORT = 1000;

class UsageError extends Error {}

const out = (text: string) => process.stdout.write(`${text}\n`);
const err = (text: string) => process.stderr.write(`${text}\n`);

interface Args {
  source: ImportSource;
  platform: string | null;
  batch: number;
  file: string;
}

function parse(argv: string[]): Args | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { source: { type: 'string' }, platform: { type: 'string' }, batch: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (!values.source) throw new UsageError('--source is required');
  if (!(values.source in IMPORT_SOURCES)) throw new UsageError(`--source must be one of ${Object.keys(IMPORT_SOURCES).join(', ')}`);
  if (values.platform !== undefined && !ACCOUNT_ID.test(values.platform)) throw new UsageError('--platform must be an account id (G…, 56 characters)');
  const batch = values.batch === undefined ? DEFAULT_BATCH_SIZE : Number(values.batch);
  if (!Number.isInteger(batch) || batch < 1 || batch > 5000) throw new UsageError('--batch must be an integer from 1 to 5000');
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'give exactly one FILE' : 'FILE is required');
  const file = userPath(positionals[0]);
  if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`${file}: no such file`);
  return { source: values.source as ImportSource, platform: values.platform ?? null, batch, file };
}

/** The master account id: MASTER_SEED, else DATA_DIR/master.seed, else the one master account in the database. */
async function masterAccountId(config: Config, orm: MikroORM): Promise<string> {
  const master = readMasterKeypair(config);
  if (master) return master.publicKey();
  const rows = await rowsOf<Pick<AccountColumns, 'id'>>(orm.em.fork(), sql`select id from accounts where account_type = ${AccountType.Master} limit 2`);
  if (rows.length !== 1) throw new UsageError('cannot tell the master account: set MASTER_SEED or pass --platform');
  return rows[0].id;
}

/**
 * The lines of a file, counting the bytes handed on (the stream itself reads ahead). The
 * interface's iterator is taken at once: readline drops lines read while no one iterates.
 */
function fileLines(file: string) {
  const stream = createReadStream(file);
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  const iterator = rl[Symbol.asyncIterator]();
  const state = {
    consumed: 0,
    close: () => {
      rl.close();
      stream.destroy();
    },
    async *lines(): AsyncGenerator<string> {
      for (let r = await iterator.next(); !r.done; r = await iterator.next()) {
        state.consumed += Buffer.byteLength(r.value) + 1;
        yield r.value;
      }
    },
  };
  return state;
}

/** Progress on stderr: a redrawn bar on a terminal, else a line every 1,000 lines. */
function progressReporter(file: string, input: { consumed: number }) {
  const tty = process.stderr.isTTY === true;
  const total = statSync(file).size || 1;
  let lastDraw = 0;
  let lastReported = 0;
  const counts = (p: ImportProgress) => `${p.lines} lines, ${p.created} created, ${p.updated} updated, ${p.rejected} rejected`;
  return {
    update(p: ImportProgress) {
      if (tty) {
        const now = Date.now();
        if (now - lastDraw < 100) return;
        lastDraw = now;
        const share = Math.min(1, input.consumed / total);
        const width = 30;
        const filled = Math.round(share * width);
        process.stderr.write(`\r\x1b[K[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(share * 100)).padStart(3)}% ${counts(p)}`);
      } else if (p.lines - lastReported >= LINES_PER_REPORT) {
        lastReported = p.lines - (p.lines % LINES_PER_REPORT);
        err(`read ${counts(p)}`);
      }
    },
    done() {
      if (tty) process.stderr.write('\r\x1b[K');
    },
  };
}

function printSummary(file: string, s: ImportSummary): void {
  out(`Imported ${s.source} lots from ${file}: ${s.lines} lines`);
  out(`  created:   ${s.created}`);
  out(`  updated:   ${s.updated}`);
  out(`  unchanged: ${s.unchanged}`);
  out(`  rejected:  ${s.rejected}`);
  for (const r of s.rejections.slice(0, LISTED)) out(`    line ${r.line}: ${r.reason}`);
  if (s.rejected > LISTED) out(`    … and ${s.rejected - LISTED} more rejected lines`);
}

async function main(): Promise<number> {
  let args: Args | 'help';
  let config: Config;
  try {
    args = parse(process.argv.slice(2));
    config = loadConfig();
  } catch (e) {
    if (!(e instanceof UsageError || e instanceof ConfigError)) throw e;
    err(`${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (args === 'help') {
    out(USAGE);
    return 0;
  }
  logger.level = 'warn';

  let embedded: EmbeddedPostgres | null = null;
  let orm: MikroORM | null = null;
  try {
    if (!config.DATABASE_URL) embedded = await startEmbeddedPostgres({ dir: config.DATA_DIR, port: config.EMBEDDED_DB_PORT, portSetting: 'EMBEDDED_DB_PORT' });
    orm = await openDatabase(config.DATABASE_URL ?? (embedded as EmbeddedPostgres).url);
    if (embedded) await migrate(orm);
    const platformId = args.platform ?? (await masterAccountId(config, orm));

    const input = fileLines(args.file);
    const progress = progressReporter(args.file, input);
    let summary: ImportSummary;
    try {
      summary = await importLots(orm.em.fork(), args.source, input.lines(), { platformId, batchSize: args.batch, onProgress: (p) => progress.update(p) });
    } finally {
      progress.done();
      input.close();
    }
    printSummary(args.file, summary);
    return 0;
  } catch (e) {
    if (e instanceof UsageError || (e instanceof DomainError && e.kind === 'invalid')) {
      err(`${e.message}\n\n${USAGE}`);
      return 2;
    }
    throw e;
  } finally {
    await orm?.close();
    await embedded?.stop();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    err(`import failed: ${(e as Error).stack ?? String(e)}`);
    process.exitCode = 1;
  },
);
