// `npm start`, `call`, `demo`, `verify-bids`: builds dist/ only when src/ changed since the last
// build of this script. The fingerprint lists every file and folder under src/ with its size and
// modification time, and the build's own settings: an edited, added, deleted or renamed file
// changes it, even one restored with an older time. Computed before the build, so that a file
// saved during a build is built next time.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const stamp = path.join(root, 'dist', '.build-stamp');

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

const current = fingerprint();
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== current) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  mkdirSync(path.dirname(stamp), { recursive: true });
  writeFileSync(stamp, current);
}
