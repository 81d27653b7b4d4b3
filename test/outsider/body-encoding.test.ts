import { gzipSync } from 'node:zlib';
import { appWith } from '../helpers/world';

/**
 * The body is read as UTF-8 JSON byte for byte. A gzip-compressed or UTF-16 body used to be
 * answered 400 malformed_json, telling its sender the JSON was wrong when the encoding was: it is
 * 415 unsupported_media_type naming the header to change, on REST and on /graphql alike.
 */
const world = appWith(async () => ({}));

const QUERY = JSON.stringify({ query: '{ __typename }' });
const JWT = JSON.stringify({ data: { type: 'jwt', attributes: { account_id: 'GA', password: 'x' } } });

const post = async (path: string, body: Buffer, headers: Record<string, string>) => {
  const res = await fetch(`${world.t.baseUrl}${path}`, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as { errors?: { code?: string; source?: { header?: string }; extensions?: { code?: string } }[]; data?: unknown } };
};

describe('a body the service cannot read as UTF-8 JSON', () => {
  it('answers a gzip-encoded REST body 415 naming Content-Encoding', async () => {
    const res = await post('/jwt', gzipSync(JWT), { 'content-type': 'application/vnd.api+json', 'content-encoding': 'gzip' });
    expect(res.status).toBe(415);
    expect(res.body.errors?.[0]).toMatchObject({ code: 'unsupported_media_type', source: { header: 'Content-Encoding' } });
  });

  it('answers a UTF-16 REST body 415 naming Content-Type', async () => {
    const res = await post('/jwt', Buffer.from(JWT, 'utf16le'), { 'content-type': 'application/vnd.api+json; charset=utf-16le' });
    expect(res.status).toBe(415);
    expect(res.body.errors?.[0]).toMatchObject({ code: 'unsupported_media_type', source: { header: 'Content-Type' } });
  });

  it('answers a gzip-encoded GraphQL request 415', async () => {
    const res = await post('/graphql', gzipSync(QUERY), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(res.status).toBe(415);
    expect(res.body.errors?.[0].extensions?.code).toBe('unsupported_media_type');
  });

  it('still reads a body sent as identity in UTF-8, however the charset is spelled', async () => {
    const res = await post('/graphql', Buffer.from(QUERY), { 'content-type': 'application/json; charset=UTF-8', 'content-encoding': 'identity' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ __typename: 'Query' });
  });
});
