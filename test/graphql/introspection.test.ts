import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
const nodeEnv = process.env.NODE_ENV;

// Apollo refuses introspection when NODE_ENV is production, unless told otherwise.
beforeAll(async () => {
  process.env.NODE_ENV = 'production';
  t = await startTestApp();
});
afterAll(async () => {
  process.env.NODE_ENV = nodeEnv;
  await t.close();
});

describe('POST /graphql with NODE_ENV=production', () => {
  it('answers an anonymous introspection query (anonymous callers may introspect)', async () => {
    const res = await t.client.graphql('{ __schema { queryType { name } types { name } } }');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.queryType).toEqual({ name: 'Query' });
    expect(res.body.data.__schema.types.map((type: { name: string }) => type.name)).toContain('Lot');
    const lot = await t.client.graphql('{ __type(name: "Lot") { fields { name } } }');
    expect(lot.body.data.__type.fields.map((f: { name: string }) => f.name)).toContain('highestBid');
  });
});

describe('POST /graphql answers', () => {
  it('are marked Cache-Control: no-store, answered data and errors alike (they are the caller\'s own)', async () => {
    const ok = await t.client.graphql('{ lots(first: 1) { nodes { id } } }');
    const refused = await t.client.graphql('{ nosuchfield }');
    expect([ok.status, ok.body.errors, ok.headers['cache-control']]).toEqual([200, undefined, 'no-store']);
    expect([refused.status, refused.headers['cache-control']]).toEqual([400, 'no-store']);
  });
});
