import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { logger } from '../../src/core/logger';
import { LinkSigner, LocalStorage } from '../../src/modules/documents/documents.storage';
import { refusingDisk, type RefusingDisk } from '../helpers/refusing-disk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { FILES, upload } from './documents.helpers';

/**
 * The documents storage on a file system that refuses the write: one where no file can be made
 * (read-only, or not the service's to write) and a full disk, real refusals of the kernel made as
 * this machine allows (test/helpers/refusing-disk.ts).
 */
let disk: RefusingDisk;
let t: TestApp;
let owner: CreatedAccount;

beforeAll(async () => {
  disk = await refusingDisk();
  t = await startTestApp();
  owner = await createAccount(t, await createPlatform(t));
}, 60_000);

afterAll(async () => {
  disk?.close();
  await t?.close();
});

const REASONS: Record<string, string> = { EROFS: 'its file system is read-only', EACCES: 'the service may not write there', ENOSPC: 'its disk is full' };
const detail = (code: string) => `the documents storage cannot store the file because ${REASONS[code]} (${code}); nothing was kept; try again later`;
const warnings = (warn: jest.SpyInstance) => warn.mock.calls.map(([fields, msg]) => ({ fields, msg }));

describe('POST /documents on a storage that refuses the write', () => {
  it('answers 503 storage_unavailable where no file can be made, and says so in the log once, without a stack', async () => {
    const documents = path.join(t.config.DATA_DIR, 'documents');
    rmSync(documents, { recursive: true, force: true });
    symlinkSync(disk.readOnly, documents);
    const warn = jest.spyOn(logger, 'warn');
    const error = jest.spyOn(logger, 'error');
    const answers = [await upload(t, owner.keypair), await upload(t, owner.keypair)];

    expect(answers.map((r) => ({ status: r.status, type: r.headers['content-type'], error: r.body.errors?.[0] }))).toEqual(
      answers.map(() => ({
        status: 503,
        type: 'application/vnd.api+json',
        error: { status: '503', code: 'storage_unavailable', title: 'Service Unavailable', detail: detail(disk.readOnlyCode), meta: { request_id: expect.any(String) } },
      })),
    );
    expect(readdirSync(disk.readOnly)).toEqual([]);
    expect(error).not.toHaveBeenCalled();
    expect(warnings(warn)).toEqual([{ fields: expect.objectContaining({ code: disk.readOnlyCode, heldBack: 0 }), msg: 'the documents storage cannot store files' }]);
  });
});

/**
 * A full disk, told to the storage itself: an upload's file name is random, and where no full tmpfs
 * can be made the file it writes is linked to /dev/full beforehand, which needs the name. The answer
 * a refusal becomes is the case above's.
 */
describe('the documents storage on a full disk', () => {
  it('refuses the file as storage_unavailable, keeps no part of it, and has its space again for a file that fits', async () => {
    const dir = disk.full ?? mkdtempSync(path.join(tmpdir(), 'documents-full-'));
    const storage = new LocalStorage(dir, new LinkSigner(Buffer.alloc(32), t.baseUrl));
    // The name LocalStorage writes a file under before renaming it into place.
    if (!disk.full) symlinkSync('/dev/full', path.join(dir, `big.pdf.${process.pid}.partial`));
    const warn = jest.spyOn(logger, 'warn');

    await expect(storage.put('big.pdf', Buffer.concat([FILES.pdf, Buffer.alloc(100 * 1024)]))).rejects.toMatchObject({ code: 'storage_unavailable', message: detail('ENOSPC') });
    expect(readdirSync(dir)).toEqual([]);
    expect(warnings(warn)).toEqual([{ fields: expect.objectContaining({ code: 'ENOSPC', heldBack: 0 }), msg: 'the documents storage cannot store files' }]);
    await storage.put('small.pdf', FILES.pdf);
    expect(readdirSync(dir)).toEqual(['small.pdf']);
  });
});
