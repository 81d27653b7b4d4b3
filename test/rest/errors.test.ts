import { startTestApp, type TestApp } from '../helpers/app';
import { createPlatform } from '../helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const signer = { data: { type: 'signers', id: 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ' } };

describe('JSON:API error documents', () => {
  it('answer an unknown path with 404 route_not_found', async () => {
    const res = await t.client.get('/nowhere');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/vnd.api+json');
    expect(res.body).toEqual({
      errors: [{ status: '404', code: 'route_not_found', title: 'Not Found', detail: 'no route for GET /nowhere' }],
    });
  });

  it('answer a known path with another method with 405', async () => {
    const res = await t.client.put('/enums/wheels', { data: {} });
    expect(res.status).toBe(405);
    expect(res.body.errors[0]).toMatchObject({ status: '405', code: 'method_not_allowed' });
  });

  it('answer an unsupported content type with 415', async () => {
    const res = await t.client.request('POST', '/master/signers', { raw: Buffer.from('id=1'), contentType: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
    expect(res.body.errors[0]).toMatchObject({ status: '415', code: 'unsupported_media_type', source: { header: 'Content-Type' } });
  });

  it('answer multipart with 415 anywhere but the document upload', async () => {
    const boundary = 'x-boundary';
    const raw = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="id"\r\n\r\n1\r\n--${boundary}--\r\n`);
    const res = await t.client.request('POST', '/master/signers', { raw, contentType: `multipart/form-data; boundary=${boundary}` });
    expect(res.status).toBe(415);
    expect(res.body.errors[0]).toMatchObject({ code: 'unsupported_media_type', source: { header: 'Content-Type' } });
  });

  it('accept both JSON media types', async () => {
    expect((await t.client.post('/master/signers', signer, { contentType: 'application/json' })).status).toBe(204);
    expect((await t.client.post('/master/signers', signer, { contentType: 'application/vnd.api+json' })).status).toBe(204);
  });

  it('answer malformed JSON with 400, never 500', async () => {
    const res = await t.client.request('POST', '/master/signers', { raw: Buffer.from('{"data": {'), contentType: 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ status: '400', code: 'malformed_json', source: { pointer: '' } });
  });

  it('answer a body over 1 MiB with 413', async () => {
    const big = Buffer.from(JSON.stringify({ data: { type: 'signers', id: 'x'.repeat(1024 * 1024) } }));
    const res = await t.client.request('POST', '/master/signers', { raw: big, contentType: 'application/json' });
    expect(res.status).toBe(413);
    expect(res.body.errors[0]).toMatchObject({ status: '413', code: 'body_too_large' });
  });

  it('list one error per faulty field with its pointer', async () => {
    const res = await t.client.post('/master/signers', { data: { type: 'accounts', id: 42 } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ status: '400', code: 'invalid_field', source: { pointer: '/data/type' } }),
      expect.objectContaining({ status: '400', code: 'invalid_field', source: { pointer: '/data/id' } }),
    ]);
  });

  it('name a missing document', async () => {
    const res = await t.client.post('/master/signers', undefined);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'missing_body', source: { pointer: '' } });
  });

  it('answer a failure of the server with a request id and nothing internal', async () => {
    const broken = await startTestApp({ MASTER_SEED: t.master.secret() }, { url: t.config.DATABASE_URL!, drop: async () => {} });
    await broken.orm.close(true);
    try {
      const res = await broken.client.get('/');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        errors: [
          {
            status: '500',
            code: 'internal_error',
            title: 'Internal Server Error',
            detail: 'an unexpected error occurred',
            meta: { request_id: res.headers['x-request-id'] },
          },
        ],
      });
      const gql = await broken.client.graphql('{ ping { platforms } }');
      expect(gql.body.errors[0]).toMatchObject({ message: 'an unexpected error occurred', extensions: { code: 'internal_error', status: 500 } });
      expect(gql.body.errors[0].extensions.requestId).toBe(gql.headers['x-request-id']);
      expect(gql.text).not.toMatch(/select|stack|at .*\.js/i);
      const ready = await broken.client.get('/readyz');
      expect(ready.status).toBe(503);
    } finally {
      await broken.app.close();
    }
  });
});

describe('POST /master/signers', () => {
  it('is idempotent and takes several keys', async () => {
    const other = { data: { type: 'signers', id: 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H' } };
    expect((await t.client.post('/master/signers', signer)).status).toBe(204);
    expect((await t.client.post('/master/signers', signer)).status).toBe(204);
    expect((await t.client.post('/master/signers', other)).status).toBe(204);
  });

  it('refuses a request that was forwarded by a proxy', async () => {
    for (const header of ['x-forwarded-for', 'forwarded']) {
      const res = await t.client.post('/master/signers', signer, { headers: { [header]: '203.0.113.9' } });
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatchObject({ status: '403', code: 'local_only' });
    }
  });

  it('refuses a key that is not an ed25519 public key', async () => {
    const res = await t.client.post('/master/signers', { data: { type: 'signers', id: 'SBAD' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'invalid_public_key', source: { pointer: '/data/id' } });
  });
});

describe('query parameter errors', () => {
  it('tell a caller who sent a filter as a plain parameter to use filter[...]', async () => {
    const platform = await createPlatform(t);
    const deposits = await t.client.as(platform).get('/deposits?state=pending');
    expect(deposits.status).toBe(400);
    expect(deposits.body.errors).toEqual([
      {
        status: '400',
        code: 'unknown_parameter',
        title: 'Bad Request',
        detail: 'state is not accepted by this endpoint; use filter[state]',
        source: { parameter: 'state' },
      },
    ]);
    const lots = await t.client.get('/lots?maker=Toyota&limit=5');
    expect(lots.status).toBe(400);
    expect(lots.body.errors.map((e: { detail: string }) => e.detail)).toEqual([
      'maker is not accepted by this endpoint; use filter[maker]',
      'limit is not accepted by this endpoint; use page[limit]',
    ]);
  });

  it('tell a caller who sent a plain parameter as a filter to use the plain one', async () => {
    const res = await t.client.get('/lots/1?filter[currency]=EUR');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      code: 'unknown_filter',
      detail: 'currency is not a filter of this endpoint; use currency',
      source: { parameter: 'filter[currency]' },
    });
  });
});
