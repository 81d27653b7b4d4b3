import { request as httpRequest, type ClientRequest } from 'node:http';
import type { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { signHeaders } from '../helpers/client';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { FILES, multipart, upload } from './documents.helpers';

// Two uploads at once per instance here: each holds up to UPLOAD_LIMIT bytes in memory until stored.
let t: TestApp;
let platform: Keypair;
let users: CreatedAccount[];
const stalled: ClientRequest[] = [];

beforeAll(async () => {
  t = await startTestApp({ UPLOADS_AT_ONCE: '2' });
  platform = await createPlatform(t);
  users = [await createAccount(t, platform), await createAccount(t, platform), await createAccount(t, platform)];
});
afterEach(() => {
  for (const req of stalled.splice(0)) req.destroy();
});
afterAll(() => t.close());

/** A signed upload of 1 MB whose sender stops halfway and never finishes, as a slow or hostile link does. */
async function stall(who: Keypair): Promise<void> {
  const { body, contentType } = multipart([
    { name: 'file[attributes]', value: JSON.stringify({ document_type: 'public' }) },
    { name: 'file', value: Buffer.concat([FILES.pdf, Buffer.alloc(1024 * 1024)]), fileName: 'big.pdf', contentType: 'application/pdf' },
  ]);
  const headers: Record<string, string> = { 'content-type': contentType, 'content-length': String(body.length), accept: 'application/vnd.api+json' };
  signHeaders('POST', '/documents', headers, body, { keypair: who });
  const req = httpRequest(new URL('/documents', t.baseUrl), { method: 'POST', headers });
  req.on('error', () => undefined);
  stalled.push(req);
  req.write(body.subarray(0, body.length / 2));
  // The upload takes its slot once its headers are read and its signature checked: milliseconds,
  // given a generous second and a half on a loaded machine.
  await new Promise((r) => setTimeout(r, 1500));
}

describe('uploads at once', () => {
  it('refuses an upload beyond UPLOADS_AT_ONCE with 503 uploads_busy and Retry-After, and takes it once one is answered', async () => {
    await stall(users[0].keypair);
    await stall(users[1].keypair);
    const busy = await upload(t, users[2].keypair);
    expect(busy.status).toBe(503);
    expect(busy.body.errors[0]).toMatchObject({ status: '503', code: 'uploads_busy', detail: expect.stringContaining('UPLOADS_AT_ONCE, 2') });
    expect(busy.headers['retry-after']).toBe('1');

    stalled.shift()?.destroy();
    await new Promise((r) => setTimeout(r, 300));
    expect((await upload(t, users[2].keypair)).status).toBe(201);
  });

  it('lets one account send two at once, its third refused with 429 uploads_in_progress while another account still gets a slot', async () => {
    await stall(users[0].keypair);
    const second = await upload(t, users[0].keypair);
    expect(second.status).toBe(201);
    await stall(users[0].keypair);
    const third = await upload(t, users[0].keypair);
    expect(third.status).toBe(429);
    expect(third.body.errors[0]).toMatchObject({ code: 'uploads_in_progress' });
    expect(third.headers['retry-after']).toBe('1');
    // Both slots are the first account's: the instance is full for everyone else too.
    expect((await upload(t, users[1].keypair)).body.errors[0].code).toBe('uploads_busy');
  });

  it('frees every slot of answered and refused uploads: ten in a row, each answered, never refused for being busy', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await upload(t, users[i % 3].keypair, i % 2 ? { attributes: { document_type: 'nonsense' } } : {})).status);
    expect(codes).toEqual([201, 400, 201, 400, 201, 400, 201, 400, 201, 400]);
  });
});
