import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { logger } from '../../src/core/logger';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { FILES, upload } from './documents.helpers';

/**
 * DATA_DIR/documents on a file system that refuses the write: a 64 KiB tmpfs that a larger file
 * fills (ENOSPC), and a read-only one (EROFS). Both are mounted in a mount namespace of the test's
 * own (`unshare`), held by a process whose view of them (/proc/<pid>/root) the storage is linked to:
 * the machine's mounts stay as they are.
 */
let t: TestApp;
let owner: CreatedAccount;
let holder: ChildProcess;
let full: string;
let readOnly: string;

async function mountedAside(): Promise<ChildProcess> {
  const child = spawn('unshare', ['--map-root-user', '--mount', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs "$1" && mount -t tmpfs -o ro tmpfs "$2" && echo mounted && exec cat', 'sh', full, readOnly], { stdio: ['pipe', 'pipe', 'pipe'] });
  let said = '';
  child.stderr?.on('data', (c: Buffer) => (said += c.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`unshare could not mount the test's file systems (exit ${code}): ${said}`)));
  });
  return child;
}

/** DATA_DIR/documents as the namespace sees `dir`. */
function storeIn(dir: string): void {
  const documents = path.join(t.config.DATA_DIR, 'documents');
  rmSync(documents, { recursive: true, force: true });
  symlinkSync(`/proc/${holder.pid}/root${dir}`, documents);
}

beforeAll(async () => {
  full = mkdtempSync(path.join(tmpdir(), 'documents-full-'));
  readOnly = mkdtempSync(path.join(tmpdir(), 'documents-ro-'));
  holder = await mountedAside();
  t = await startTestApp({ UPLOAD_LIMIT: String(1024 * 1024) });
  owner = await createAccount(t, await createPlatform(t));
}, 60_000);

afterAll(async () => {
  holder?.stdin?.end();
  holder?.kill();
  await t?.close();
});

const refusal = (code: string, because: string) => ({
  status: '503',
  code: 'storage_unavailable',
  title: 'Service Unavailable',
  detail: `the documents storage cannot store the file because ${because} (${code}); nothing was kept; try again later`,
  meta: { request_id: expect.any(String) },
});

describe('POST /documents on a storage that refuses the write', () => {
  it('answers a full disk 503 storage_unavailable, keeps no part of the file, and says so in the log once, without a stack', async () => {
    storeIn(full);
    const warn = jest.spyOn(logger, 'warn');
    const error = jest.spyOn(logger, 'error');
    const big = Buffer.concat([FILES.pdf, Buffer.alloc(100 * 1024)]);
    const answers = [await upload(t, owner.keypair, { bytes: big }), await upload(t, owner.keypair, { bytes: big })];

    expect(answers.map((r) => ({ status: r.status, type: r.headers['content-type'], error: r.body.errors?.[0] }))).toEqual(
      answers.map(() => ({ status: 503, type: 'application/vnd.api+json', error: refusal('ENOSPC', 'its disk is full') })),
    );
    expect(readdirSync(`/proc/${holder.pid}/root${full}`)).toEqual([]);
    expect(error).not.toHaveBeenCalled();
    expect(warn.mock.calls.map(([fields, msg]) => ({ fields, msg }))).toEqual([{ fields: expect.objectContaining({ code: 'ENOSPC', heldBack: 0 }), msg: 'the documents storage cannot store files' }]);
    // The space a partial file took is free again: a file that fits is stored.
    expect((await upload(t, owner.keypair)).status).toBe(201);
  });

  it('answers a read-only file system 503 storage_unavailable', async () => {
    storeIn(readOnly);
    const res = await upload(t, owner.keypair);
    expect({ status: res.status, error: res.body.errors?.[0] }).toEqual({ status: 503, error: refusal('EROFS', 'its file system is read-only') });
  });
});
