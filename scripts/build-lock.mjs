// One command builds dist/ at a time (scripts/build-if-stale.mjs): the lock is the folder
// dist/.build-lock, made and kept fresh by proper-lockfile.
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** A lock not touched for this long belongs to a command that was killed, and is taken over. */
const STALE_MS = 10_000;

/** Five minutes: a build takes seconds, and a command that waits longer says why it gave up. */
const WAIT = { retries: 3000, factor: 1, minTimeout: 100, maxTimeout: 100 };

export class BuildLockError extends Error {}

/**
 * Whether what is at `lockPath` can be no lock of a command: a file, a folder with something in it
 * (proper-lockfile makes an empty one), or a folder dated ahead of the clock, which would never
 * go stale. proper-lockfile would retry removing such a thing for the whole wait, without a word.
 */
function notALock(lockPath) {
  let stat;
  try {
    stat = lstatSync(lockPath);
  } catch {
    return false;
  }
  return !stat.isDirectory() || readdirSync(lockPath).length > 0 || stat.mtimeMs > Date.now() + STALE_MS;
}

/**
 * Runs `build(held)` holding `dist/.build-lock`, after the command that holds it, if any. `held()`
 * says whether the lock is still this command's: it is not after dist/ was removed, or after this
 * command was suspended long enough for another to take the lock over as stale.
 */
export async function withBuildLock(dist, build) {
  const lockPath = path.join(dist, '.build-lock');
  const options = { lockfilePath: lockPath, realpath: false, stale: STALE_MS };
  if (notALock(lockPath)) rmSync(lockPath, { recursive: true, force: true });
  if (await lockfile.check(dist, options).catch(() => false)) console.error(`waiting for another command's build of dist/ (${lockPath})`);
  let lost = false;
  const release = await lockfile.lock(dist, { ...options, retries: WAIT, onCompromised: () => (lost = true) }).catch((err) => {
    throw new BuildLockError(`could not take ${lockPath} to build dist/: ${err.code === 'ELOCKED' ? 'another build held it for five minutes' : err.message}`);
  });
  try {
    return await build(() => !lost && lstatSync(lockPath, { throwIfNoEntry: false })?.isDirectory() === true);
  } finally {
    // A lock that was lost is no longer this command's to release.
    await release().catch(() => undefined);
  }
}
