import { parse } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { checkCost } from '../../src/graphql/cost';
import { buildAppSchema } from '../../src/graphql/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { countStatements } from '../helpers/statements';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The attack: one alias is a page of 100 lots with seven relations each. */
const ONE = 'lots(first: 100) { nodes { organizer { id } bids { amount } participants { id } deposits { id } callbacks { id } stars { createdAt } winnerDetails { feeAmount } } }';
const aliases = (n: number, body = ONE) => Array.from({ length: n }, (_, i) => `a${i}: ${body}`).join(' ');

describe('the GraphQL cost limit (GRAPHQL_MAX_COST)', () => {
  it('refuses 50 aliases of the attack page with 400 query_too_costly naming the cost and the limit, before any SQL runs', async () => {
    let res: Awaited<ReturnType<TestApp['client']['graphql']>> | undefined;
    const statements = await countStatements(t, async () => {
      res = await t.client.graphql(`{ ${aliases(50)} }`);
    });
    expect(res?.status).toBe(400);
    expect(res?.body.data).toBeUndefined();
    expect(res?.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'query_too_costly', status: 400 } })]);
    expect(res?.body.errors[0].message).toBe(`the query costs 2600050, more than the limit of ${t.config.GRAPHQL_MAX_COST}`);
    expect(statements).toBe(0);
  });

  it('counts the statement of each lot count or page: 200 aliased lotsCount, 8 KB, are refused before any SQL runs; ten are answered', async () => {
    const counts = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `c${i}: lotsCount(filter: { city: "New York" })`).join(' ')} }`;
    let res: Awaited<ReturnType<TestApp['client']['graphql']>> | undefined;
    const statements = await countStatements(t, async () => {
      res = await t.client.graphql(counts(200));
    });
    expect({ status: res?.status, message: res?.body.errors[0].message, statements }).toEqual({ status: 400, message: `the query costs 200200, more than the limit of ${t.config.GRAPHQL_MAX_COST}`, statements: 0 });
    const ten = await t.client.graphql(counts(10));
    expect({ status: ten.status, errors: ten.body.errors, answered: Object.keys(ten.body.data).length }).toEqual({ status: 200, errors: undefined, answered: 10 });
  });

  it('refuses the 1,000-alias attack by its length (GRAPHQL_MAX_TOKENS) before validating or costing it', async () => {
    let res: Awaited<ReturnType<TestApp['client']['graphql']>> | undefined;
    const statements = await countStatements(t, async () => {
      res = await t.client.graphql(`{ ${aliases(1000)} }`);
    });
    expect(res?.status).toBe(400);
    expect(res?.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'graphql_parse_failed', status: 400 } })]);
    expect(res?.body.errors[0].message).toBe(`Syntax Error: Document contains more that ${t.config.GRAPHQL_MAX_TOKENS} tokens. Parsing aborted.`);
    expect(statements).toBe(0);
  });

  it('takes one alias of the same page at 37 lots (cost 19871: each relation counted at its bound of 100, the page\'s own statement at 1,000) and answers it', async () => {
    const res = await t.client.graphql(`{ ${aliases(1, ONE.replace('first: 100', 'first: 37'))} }`);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a0.nodes).toEqual([]);
  });

  it('counts page sizes given by variables', async () => {
    const query = 'query($n: Int!) { a: lots(first: $n) { nodes { bids { amount } } } b: lots(first: $n) { nodes { bids { amount } } } }';
    expect((await t.client.graphql(query, { n: 10 })).body.errors).toBeUndefined();
    const res = await t.client.graphql(query, { n: 1000 });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('query_too_costly');
    expect(res.body.errors[0].message).toMatch(/^the query costs 206002, /);
  });

  it('counts fragments and inline fragments at every spread', async () => {
    const query = `
      fragment Page on Query { ${aliases(2)} }
      query { ...Page ... on Query { x: lots(first: 100) { nodes { ...Lot } } } y: lots(first: 100) { nodes { ...Lot } } }
      fragment Lot on Lot { bids { amount } participants { id } deposits { id } callbacks { id } stars { createdAt } }`;
    const res = await t.client.graphql(query);
    expect(res.status).toBe(400);
    // Two aliases of the attack's page (2 × 52001: a lot's bids, participants, deposits, callbacks and stars count at their bound of 100, the page's statement 1,000) and two pages of five relations (2 × 51601).
    expect(res.body.errors[0].message).toMatch(/^the query costs 207204, /);
  });

  it('refuses a subscription over the limit on a WebSocket, and runs one under it', async () => {
    const small = await startTestApp({ GRAPHQL_MAX_COST: '30' });
    const client: Client = createClient({ url: `ws://127.0.0.1:${small.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    const first = (query: string) =>
      new Promise<unknown>((resolve) => {
        const stop = client.subscribe({ query }, { next: (r) => resolve(r), error: (e) => resolve(e), complete: () => resolve('complete') });
        setTimeout(() => { stop(); resolve('open'); }, 1000);
      });
    try {
      const refused = await first('subscription { lotUpdated(lotId: "1") { bids { amount } participants { id } stars { createdAt } } }');
      expect(refused).toEqual([expect.objectContaining({ message: 'the query costs 304, more than the limit of 30', extensions: { code: 'query_too_costly', status: 400 } })]);
      expect(await first('subscription { lotUpdated(lotId: "1") { id bids(last: 5) { amount } } }')).not.toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'query_too_costly' }) })]);
    } finally {
      await client.dispose();
      await small.close();
    }
  });

  it('keeps the schema readable: the introspection query is well under the limit', async () => {
    const res = await t.client.graphql('{ __schema { types { name fields { name args { name type { name ofType { name ofType { name ofType { name } } } } } } } } }');
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.types.length).toBeGreaterThan(10);
  });
});

describe('the GraphQL depth limit (GRAPHQL_MAX_DEPTH)', () => {
  const schema = buildAppSchema();
  const limits = { maxCost: 1e9, maxDepth: 3, maxTokens: 1000 };
  it('refuses an operation nesting deeper than the limit, through fragments too', () => {
    expect(() => checkCost(schema, parse('{ lots { nodes { deposits { participant { id } } } } }'), {}, undefined, limits)).toThrow(
      'the query nests 5 fields deep, more than the limit of 3',
    );
    expect(() => checkCost(schema, parse('{ lots { nodes { ...L } } } fragment L on Lot { deposits { id } }'), {}, undefined, limits)).toThrow(
      'the query nests 4 fields deep',
    );
    expect(checkCost(schema, parse('{ lots(first: 2) { nodes { id } } }'), {}, undefined, limits)).toBe(1005);
  });
});
