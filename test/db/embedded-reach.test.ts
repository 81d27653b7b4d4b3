import { chmodSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { barredFolder } from '../../src/db/embedded.host';

/**
 * Run as root, the embedded PostgreSQL runs as another user, who must be able to enter the folders
 * above its data and its programs. A project under /root (mode 700) kept it from its programs, and
 * the start failed with `spawn … initdb EACCES` and a stack trace (the outside tester, 29 November).
 */
describe('the folders the embedded PostgreSQL\'s user cannot enter', () => {
  const nobody = { uid: 65534, gid: 65534 };

  it('names the first folder up from a program that another user may not enter', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'reach-'));
    const bin = path.join(home, 'project', 'node_modules', 'bin');
    mkdirSync(bin, { recursive: true });
    chmodSync(home, 0o700);
    expect(barredFolder(bin, nobody)).toBe(home);
    chmodSync(home, 0o711);
    expect(barredFolder(bin, nobody)).toBeNull();
  });

  it('lets the folder\'s owner in by the owner\'s bit, and a member of its group by the group\'s', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'reach-'));
    const owner = statSync(home);
    chmodSync(home, 0o700);
    expect(barredFolder(home, { uid: owner.uid, gid: 65534 })).toBeNull();
    chmodSync(home, 0o010);
    expect(barredFolder(home, { uid: 65534, gid: owner.gid })).toBeNull();
    expect(barredFolder(home, { uid: owner.uid, gid: owner.gid })).toBe(home);
    chmodSync(home, 0o700);
  });
});
