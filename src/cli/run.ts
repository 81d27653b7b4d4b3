import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config';
import { Unreachable } from './api';
import { Refused } from './resources';
import { StartRefusal } from '../start-refusal';

/** A mistake in the command line or the environment: answered with the usage, exit code 2. */
export class UsageError extends Error {}

// Output piped into a reader that stopped (`| head`) ends in EPIPE: an unhandled error that killed the
// command with a stack. The command runs to its end, to its exit code, writing no more.
let readerGone = false;
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  readerGone = true;
});

export const out = (text: string) => readerGone || process.stdout.write(`${text}\n`);
const err = (text: string) => process.stderr.write(`${text}\n`);

/** The folder the command was typed in: npm runs a script in the project's folder, and passes the user's own as INIT_CWD. */
export const userFolder = (): string => process.env.INIT_CWD ?? process.cwd();

/** A file the user named, from the folder the command was typed in. */
export const userPath = (given: string): string => path.resolve(userFolder(), given);

export interface CommandLine {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  config: Config;
  /** The service's URL: --base, else this machine at the configured PORT. */
  base: string;
}

/** Runs a command: exit 0 on success, 1 when it failed, 2 on usage errors. Every command takes --base and --help. */
export function runCommand(usage: string, options: ParseArgsConfig['options'], main: (line: CommandLine) => Promise<number>): void {
  const start = async (): Promise<number> => {
    const { values, positionals } = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: { ...options, base: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      out(usage);
      return 0;
    }
    const config = loadConfig();
    const base = typeof values.base === 'string' ? values.base : `http://127.0.0.1:${config.PORT}`;
    if (!/^https?:\/\/[^/]+\/?$/.test(base)) throw new UsageError(`--base must be http(s)://host[:port], not ${base}`);
    return main({ values, positionals, config, base: base.replace(/\/$/, '') });
  };
  start().then(
    (code) => {
      process.exitCode = code;
    },
    (e: Error) => {
      const usageError = e instanceof UsageError || e instanceof ConfigError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
      // The service's answer says what went wrong, and so do a refusal (another run holds DATA_DIR) and a file
      // that cannot be read or written (EACCES: …, open '…'); anything else is a bug, shown with its stack.
      const said = e instanceof Unreachable || e instanceof Refused || e instanceof StartRefusal || typeof (e as NodeJS.ErrnoException).syscall === 'string';
      err(usageError ? `${e.message}\n\n${usage}` : said ? e.message : `failed: ${e.stack ?? e.message}`);
      process.exitCode = usageError ? 2 : 1;
    },
  );
}
