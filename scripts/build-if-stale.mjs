// `npm start`, `call`, `demo`, `verify-bids`: builds dist/ only when src/ changed since the last
// build of this script. The fingerprint lists every file and folder under src/ with its size and
// modification time, and the build's own settings: an edited, added, deleted or renamed file
// changes it, even one restored with an older time. Computed before the build, so that a file
// saved during a build is built next time. One command builds at a time: a second one started
// meanwhile (npm start in one terminal, npm run demo in another) waits for that build, then finds
// dist/ current, rather than rewriting files the first one's service is loading.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
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

const recorded = () => (existsSync(stamp) ? readFileSync(stamp, 'utf8') : null);

if (recorded() !== fingerprint()) {
  mkdirSync(dist, { recursive: true });
  // The lock's file is touched every few seconds while it is held; one left by a command killed
  // midway is stale 10 s later and taken over. A build takes a few seconds: five minutes of waiting
  // means something else is wrong, and the command says which file it waited on.
  const lockPath = path.join(dist, '.build-lock');
  const release = await lockfile
    .lock(dist, {
      lockfilePath: lockPath,
      realpath: false,
      stale: 10_000,
      retries: { retries: 3000, factor: 1, minTimeout: 100, maxTimeout: 100 },
      // Taken over by another command that found it stale (this one was frozen ten seconds): both build, as before there was a lock.
      onCompromised: () => console.error(`${lockPath} was taken over by another build while this one ran`),
    })
    .catch((err) => {
      console.error(`could not take ${lockPath} to build dist/: ${err.code === 'ELOCKED' ? 'another build held it for five minutes' : err.message}`);
      process.exit(1);
    });
  try {
    const current = fingerprint();
    if (recorded() !== current) {
      // Not spawnSync: the lock's file is touched from this process's event loop while the build runs.
      const status = await new Promise((resolve) => spawn('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' }).once('close', resolve));
      if (status !== 0) process.exitCode = status ?? 1;
      else writeFileSync(stamp, current);
    }
  } finally {
    await release();
  }
}
