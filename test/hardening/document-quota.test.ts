import { StoredDocument } from '../../src/modules/documents/documents.entity';
import { createAccount } from '../helpers/factories';
import { appWithPlatform } from '../helpers/world';
import { FILES, upload } from '../documents/documents.helpers';

/** A PDF of exactly `size` bytes: the smallest one, padded with a comment. */
const pdfOf = (size: number) => Buffer.concat([FILES.pdf, Buffer.from(`%${'x'.repeat(size - FILES.pdf.length - 2)}\n`)]);

const QUOTA = 10_000;
// Eight uploads of one account at once, for the race below (two by default: test/documents/upload-slots.test.ts).
const world = appWithPlatform({ env: { DOCUMENT_QUOTA_BYTES: String(QUOTA), UPLOADS_PER_ACCOUNT: '8' } });

describe('the per-account storage quota of documents (DOCUMENT_QUOTA_BYTES)', () => {
  it('answers 413 storage_quota_exceeded naming the quota once an account’s documents would exceed it; others still upload', async () => {
    const user = await createAccount(world.t, world.platform);
    expect((await upload(world.t, user.keypair, { bytes: pdfOf(6000) })).status).toBe(201);
    expect((await upload(world.t, user.keypair, { bytes: pdfOf(4000) })).status).toBe(201);
    const over = await upload(world.t, user.keypair, { bytes: pdfOf(1000) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      errors: [{ status: '413', code: 'storage_quota_exceeded', title: 'Payload Too Large', detail: `the storage quota is ${QUOTA} bytes per account; 10000 are in use, and this document has 1000` }],
    });
    const other = await createAccount(world.t, world.platform);
    expect((await upload(world.t, other.keypair, { bytes: pdfOf(6000) })).status).toBe(201);
  });

  it('does not count expired documents', async () => {
    const user = await createAccount(world.t, world.platform);
    expect((await upload(world.t, user.keypair, { bytes: pdfOf(9000), attributes: { document_type: 'public', expires: '1d' } })).status).toBe(201);
    await world.t.orm.em.fork().nativeUpdate(StoredDocument, { uploadedBy: user.id }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await upload(world.t, user.keypair, { bytes: pdfOf(9000) })).status).toBe(201);
  });

  it('holds under concurrent uploads: of 8 uploads of 3,000 bytes at once, 3 are stored and the total stays within the quota', async () => {
    const user = await createAccount(world.t, world.platform);
    const answers = await Promise.all(Array.from({ length: 8 }, () => upload(world.t, user.keypair, { bytes: pdfOf(3000) })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 413, 413, 413, 413, 413]);
    const stored = await world.t.orm.em.fork().find(StoredDocument, { uploadedBy: user.id });
    expect(stored.reduce((sum, d) => sum + d.size, 0)).toBe(9000);
  });
});
