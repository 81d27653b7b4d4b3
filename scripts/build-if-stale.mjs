// `npm start`, `call`, `demo`, `verify-bids` and every other command that runs dist/: builds
// dist/ only when src/ changed since the last build of this script. The fingerprint lists every
// file and folder under src/ with its size and modification time, and the build's own settings:
// an edited, added, deleted or renamed file changes it, even one restored with an older time.
// Computed before the build, so that a file saved during a build is built next time. One command
// builds at a time (scripts/build-lock.mjs): a second one started meanwhile (npm start in one
// terminal, npm run demo in another) waits for that build, then finds dist/ current, rather than
// rewriting files the first one's service is loading.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BuildLockError, withBuildLock } from './build-lock.mjs';

// Not the URL's pathname, which keeps a space as %20.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.build-stamp');

function fingerprint() {
  const hash = createHash('sha256');
  const add = (file) => {
    const s = statSync(file);
    hash.update(`${path.relative(root, file)}\0${s.size}\0${s.mtimeMs}\n`);
    if (s.isDirectory()) for (const name of readdirSync(file).sort()) add(path.join(file, name));
  };
  for (const entry of ['src', '.swcrc', 'package.json']) add(path.join(root, entry));
  return hash.digest('hex');
}

/** A line of the stack of @swc/cli's "Error: Failed to compile". */
const SWC_STACK = /^\s+at .*[\\/]node_modules[\\/]@swc[\\/]/;

const recorded = () => (existsSync(stamp) ? readFileSync(stamp, 'utf8') : null);

/**
 * `npm run build`, stopped with this command. npm dies of a SIGTERM and leaves the build running,
 * writing dist/ after the lock is released: the build runs in a process group of its own, sent
 * every signal this command is (a terminal's Ctrl-C reaches this command's group only). Answers
 * the build's exit status.
 */
function runBuild() {
  // A syntax error is told as swc's diagnostic (file, line, caret) and the files it failed on: not
  // with swc's Rust backtrace (printed where the user's RUST_BACKTRACE asks for one) nor its CLI's stack.
  const child = spawn('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'inherit', 'pipe'], detached: true, env: { ...process.env, RUST_BACKTRACE: '0' } });
  let pending = '';
  const relay = (text) => {
    const lines = (pending + text).split('\n');
    pending = lines.pop();
    const told = lines.filter((line) => !SWC_STACK.test(line));
    if (told.length) process.stderr.write(`${told.join('\n')}\n`);
  };
  child.stderr.setEncoding('utf8').on('data', relay).on('end', () => pending && relay('\n'));
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const forward = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Ended already.
    }
  };
  for (const signal of signals) process.on(signal, forward);
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      for (const s of signals) process.off(s, forward);
      resolve(code ?? 128 + constants.signals[signal]);
    }),
  );
}

if (recorded() !== fingerprint()) {
  try {
    mkdirSync(dist, { recursive: true });
  } catch (err) {
    // One line, no stack; and the command after this one (npm start's node dist/main.js) does not run.
    console.error(`cannot build into ${dist} (${err.code ?? err.message}): remove what is there, or make it a folder this user may write`);
    process.exit(1);
  }
  const failure = await withBuildLock(dist, async (held) => {
    const current = fingerprint();
    if (recorded() === current) return null;
    const status = await runBuild();
    if (status !== 0) return { status };
    if (!held()) return { status: 1, message: `${path.join(dist, '.build-lock')} was lost during the build (dist/ removed, or this command suspended and another build took over): run the command again` };
    writeFileSync(stamp, current);
    return null;
  }).catch((err) => (err instanceof BuildLockError ? { status: 1, message: err.message } : Promise.reject(err)));
  // After the lock is released: a command waiting for it goes on at once.
  if (failure?.message) console.error(failure.message);
  if (failure) process.exit(failure.status);
}
