import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Keypair } from '@stellar/stellar-sdk';
import S3rver from 's3rver';
import { StoredDocument } from '../../src/modules/documents/documents.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { fetchLink, FILES, uploadedId } from './documents.helpers';

// s3rver accepts its own fixed credentials; it checks a presigned URL's expiry, but not its signature.
const BUCKET = 'documents';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
let s3: S3rver;
let endpoint: string;
let t: TestApp;
let platform: Keypair;
let owner: CreatedAccount;

beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: mkdtempSync(path.join(tmpdir(), 's3rver-')), configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
  t = await startTestApp({
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    STORAGE_LINK_TTL: '2',
  });
  platform = await createPlatform(t);
  owner = await createAccount(t, platform);
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

describe('documents in an S3-compatible store', () => {
  it('stores the bytes in the bucket and links them with a presigned URL that expires', async () => {
    const id = await uploadedId(t, owner.keypair, { bytes: FILES.png, contentType: 'image/png', fileName: 'photo.png' });
    const res = await t.client.get(`/documents/${id}`);
    const link: string = res.body.data.attributes.storage_link;
    expect(link.startsWith(`${endpoint}/${BUCKET}/${id}?`)).toBe(true);
    expect(new URL(link).searchParams.get('X-Amz-Expires')).toBe('2');
    const served = await fetchLink(t, link);
    expect(served.status).toBe(200);
    expect(served.type).toBe('image/png');
    expect(served.bytes.equals(FILES.png)).toBe(true);
    await new Promise((r) => setTimeout(r, 2200));
    expect((await fetchLink(t, link)).status).toBe(403);
  });

  it('purgeExpired deletes the object', async () => {
    const id = await uploadedId(t, owner.keypair, { attributes: { document_type: 'public', expires: '1d' } });
    const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: CREDENTIALS });
    const object = () => client.send(new GetObjectCommand({ Bucket: BUCKET, Key: id }));
    expect(Buffer.from(await (await object()).Body!.transformToByteArray()).equals(FILES.pdf)).toBe(true);
    await t.orm.em.fork().nativeUpdate(StoredDocument, { id }, { expiresAt: new Date(Date.now() - 1000) });
    expect(await t.app.services.documents.purgeExpired(t.orm.em.fork())).toBe(1);
    await expect(object()).rejects.toMatchObject({ name: 'NoSuchKey' });
    client.destroy();
  });
});
