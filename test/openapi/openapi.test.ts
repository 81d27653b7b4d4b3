import { validate } from '@readme/openapi-parser';
import { openApiPath } from '../../src/rest/openapi';
import { agreeOnLogKey, loadLogKeypair } from '../../src/auth/log-key';
import { logger } from '../../src/core/logger';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPlatform } from '../helpers/factories';
import { createLot } from '../helpers/lots';

let t: TestApp;
type Operation = { summary?: string; tags?: string[]; requestBody?: { content: Record<string, { schema: any }> }; security?: unknown[]; parameters?: { name: string; in: string }[] };
let doc: { openapi: string; tags: { name: string; description?: string }[]; paths: Record<string, Record<string, Operation>>; components: any };

beforeAll(async () => {
  t = await startTestApp();
  // No socket kept alive: validating the document can outlast the server's keep-alive timeout
  // on a loaded machine, and the next request would be sent on a socket the server closes.
  const res = await t.client.get('/openapi.json', { headers: { connection: 'close' } });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = JSON.parse(res.text);
});
afterAll(() => t?.close());

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operationsOf = (d: typeof doc) => Object.entries(d.paths).flatMap(([path, item]) => Object.keys(item).filter((m) => METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${path}`));

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    // validate() dereferences in place: give it a copy.
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does look: a parameter in no place OpenAPI knows is refused.
    const broken = structuredClone(doc);
    broken.paths['/lots'].get.parameters![0].in = 'body';
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('describes exactly the routes the router serves, each method of each path', () => {
    const served = t.app.router.koa.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${openApiPath(layer.path as string)}`));
    expect(served.length).toBeGreaterThan(60);
    expect(new Set(served).size).toBe(served.length);
    expect([...operationsOf(doc)].sort()).toEqual([...served].sort());
  });

  it('documents the bid request\'s answer under Prefer: return=representation beside its 204', () => {
    const op = doc.paths['/lots/{id}/bid_requests'].post as Operation & { responses: Record<string, any> };
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['204', '200']));
    expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Prefer', in: 'header' })]));
    expect(op.responses['200'].headers['Preference-Applied']).toBeDefined();
    expect(op.responses['200'].content['application/vnd.api+json'].schema.properties.data).toEqual({ type: 'array', items: { $ref: '#/components/schemas/bids' } });
  });

  it('gives every operation a summary', () => {
    const missing = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).filter(([, op]) => !op.summary?.trim()).map(([m]) => `${m} ${path}`));
    expect(missing).toEqual([]);
  });

  it('groups the operations by area: one declared, described tag each, the infrastructure last', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, tags: op.tags, summary: op.summary })));
    expect(operations.filter((op) => op.tags?.length !== 1 || !op.summary?.trim())).toEqual([]);
    const declared = doc.tags.map((tag) => tag.name);
    expect(new Set(declared).size).toBe(declared.length);
    expect([...new Set(operations.map((op) => op.tags![0]))].sort()).toEqual([...declared].sort());
    expect(doc.tags.filter((tag) => !tag.description?.trim())).toEqual([]);
    expect(declared).toEqual(expect.arrayContaining(['accounts', 'lots', 'bids', 'trading', 'documents', 'notifications', 'messages']));
    expect(declared.at(-1)).toBe('infrastructure');
    // The service's own routes, and nothing else, are its infrastructure; they come last in the document as in the page.
    const infrastructure = operations.filter((op) => op.tags![0] === 'infrastructure');
    expect(infrastructure.map((op) => op.path).sort()).toEqual(
      ['/.well-known/jwks.json', '/docs', '/docs/{file}', '/graphiql/{file}', '/graphql', '/graphql', '/healthz', '/metrics', '/openapi.json', '/readyz'].sort(),
    );
    expect(operations.slice(-infrastructure.length).every((op) => op.tags![0] === 'infrastructure')).toBe(true);
    const tagOf = (method: string, path: string) => doc.paths[path][method].tags![0];
    expect([tagOf('get', '/lots'), tagOf('post', '/lots/{id}/bid_requests'), tagOf('post', '/accounts'), tagOf('get', '/accounts/{id}/saved_searches'), tagOf('get', '/live/{id}')]).toEqual(['lots', 'bids', 'accounts', 'searches', 'live']);
  });

  it('takes request attributes from the services’ zod inputs under their wire names', () => {
    const attributes = (path: string, method: string) => doc.paths[path][method].requestBody!.content['application/vnd.api+json'].schema.properties.data.properties.attributes;
    const bid = attributes('/lots/{id}/bid_requests', 'post');
    expect(Object.keys(bid.properties).sort()).toEqual(['amount', 'lot_id', 'max_amount']);
    const lot = attributes('/lots', 'post');
    expect(lot.properties).toHaveProperty('start_price');
    expect(lot.required).toEqual(expect.arrayContaining(['start_price']));
    // The account's key is data.id, not an attribute.
    const account = doc.paths['/accounts'].post.requestBody!.content['application/vnd.api+json'].schema.properties.data;
    expect(account.required).toEqual(['type', 'id']);
    expect(account.properties.type).toEqual({ const: 'accounts' });
    expect(account.properties.attributes.properties).not.toHaveProperty('id');
  });

  it('names the query parameters of the query specs and the path parameters', () => {
    const names = doc.paths['/lots'].get.parameters!.map((p) => `${p.in}:${p.name}`);
    expect(names).toEqual(expect.arrayContaining(['query:filter[lot_state]', 'query:sort', 'query:page[cursor]', 'query:page[limit]', 'query:include']));
    expect(doc.paths['/lots/{id}'].get.parameters!.map((p) => `${p.in}:${p.name}`)).toContain('path:id');
  });

  it('declares the answer of every operation that answers a document', () => {
    const undeclared = t.app.router.operations
      .filter((op) => op.kind === 'jsonapi' && (op.options.status ?? 200) !== 204 && op.options.response === undefined)
      .map((op) => `${op.method} ${op.path}`);
    expect(undeclared).toEqual([]);
  });

  /** Reads whose service requires parameters that the query spec leaves optional. */
  const NEEDS: Record<string, string> = { '/convert': '?from=EUR&to=USD&amount=10' };

  it('declares the resource type that each public read without parameters answers', async () => {
    await createLot(t, await createPlatform(t));
    // The log key's history, as every start records it (src/main.ts) and this test's app did not.
    await agreeOnLogKey(t.orm.em.fork(), loadLogKeypair(t.config, t.master, logger), t.config);
    const reads = t.app.router.operations.filter(
      (op) => op.kind === 'jsonapi' && op.method === 'get' && !op.path.includes(':') && !op.options.authenticated && !Object.values({ ...op.options.query?.plain, ...op.options.query?.filters }).some((k) => k.required),
    );
    expect(reads.length).toBeGreaterThan(5);
    for (const op of reads) {
      if (op.kind !== 'jsonapi') continue;
      const res = await t.client.get(`${op.path}${NEEDS[op.path] ?? ''}`);
      expect(`${op.path} ${res.status}`).toBe(`${op.path} 200`);
      const declared = op.options.response;
      if (declared === null) expect(res.body.data).toBeNull();
      else if (typeof declared === 'string') expect(`${op.path} ${res.body.data.type}`).toBe(`${op.path} ${declared}`);
      else {
        expect(`${op.path} ${res.body.data.length > 0}`).toBe(`${op.path} true`);
        expect([...new Set(res.body.data.map((r: { type: string }) => `${op.path} ${r.type}`))]).toEqual([`${op.path} ${declared![0]}`]);
      }
    }
  });

  it('states the security of each operation: signature or bearer JWT, optional on public ones', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'signature']);
    expect(doc.paths['/lots/{id}/bid_requests'].post.security).toEqual([{ signature: [] }, { bearer: [] }]);
    expect(doc.paths['/lots'].get.security).toEqual([{}, { signature: [] }, { bearer: [] }]);
  });
});
