import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { parse, visit } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { logger } from '../../src/core/logger';
import { analysisFigures } from '../../src/graphql/cost-analysis';
import { startServiceProcess, type ServiceProcess } from '../faults/service-process';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { ROOT } from '../helpers/process';
import { note } from '../helpers/notes';

/** The 4xx codes docs/errors.md lists: every refusal of a generated document must carry one. */
const DOCUMENTED_4XX = new Set(
  [...readFileSync(path.join(ROOT, 'docs/errors.md'), 'utf8').matchAll(/^\| `([a-z_]+)` \| (4\d\d) \|/gm)].map((m) => m[1]),
);

/** Finding 1 of issue 26: each fragment spreads the next twice. */
const chain = (links: number, on = 'Query', leaf = '__typename') =>
  Array.from({ length: links }, (_, i) => (i === links - 1 ? `fragment G${i} on ${on} { ${leaf} }` : `fragment G${i} on ${on} { a: ${leaf} ...G${i + 1} ...G${i + 1} }`)).join(' ');
const FINDING_1 = `${chain(30)} { ...G0 }`;
/** Finding 2: 200 aliases of the schema's types. */
const FINDING_2 = `{ ${Array.from({ length: 200 }, (_, i) => `s${i}: __schema { types { name kind fields { name type { name kind ofType { name } } } } }`).join(' ')} }`;

const nodesOf = (query: string) => {
  let n = 0;
  visit(parse(query, { noLocation: true }), { enter: () => void n++ });
  return n;
};

let t: TestApp;
let ws: Client;
beforeAll(async () => {
  t = await startTestApp();
  ws = createClient({ url: `ws://127.0.0.1:${t.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
});
afterAll(async () => {
  await ws.dispose();
  await t.close();
});

/** The first thing a subscription yields: its errors, a result, or 'open' when nothing came within `ms`. */
function firstOnSocket(query: string, variables?: Record<string, unknown>, ms = 300): Promise<unknown> {
  return new Promise((resolve) => {
    const stop = ws.subscribe({ query, variables }, { next: (r) => (stop(), resolve(r)), error: (e) => resolve(e), complete: () => resolve('complete') });
    setTimeout(() => {
      stop();
      resolve('open');
    }, ms);
  });
}

/** The codes of an answer's errors: an `errors` array, or a result that carries one. */
function codesOf(errors: unknown): string[] {
  const list = Array.isArray(errors) ? errors : (errors as { errors?: unknown } | null)?.errors;
  return Array.isArray(list) ? list.map((e: { extensions?: { code?: string } }) => String(e.extensions?.code)) : [];
}

/** Generated documents: chains and trees of fragments, aliases, introspection, nested lists, deep variables. */
interface Generated {
  query: string;
  subscription: string;
  variables?: Record<string, unknown>;
}

const LEAVES = ['id', 'highestBid', 'bids { amount }', 'bids(last: 100) { amount createdAt }', 'participants { id }', 'organizer { id email }'];

const fragmentTree = fc
  .record({
    size: fc.integer({ min: 1, max: 40 }),
    edges: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 4 })), { maxLength: 120 }),
    leaves: fc.array(fc.constantFrom(...LEAVES), { minLength: 1, maxLength: 40 }),
    page: fc.integer({ min: 1, max: 100 }),
  })
  .map(({ size, edges, leaves, page }) => {
    const spreads: string[][] = Array.from({ length: size }, () => []);
    // Edges go from a fragment to a later one: a tree or a chain, never a cycle.
    for (const [from, to, times] of edges) {
      const a = from % size;
      const b = to % size;
      if (a < b) for (let k = 0; k < times; k++) spreads[a].push(`...L${b}`);
    }
    const fragments = spreads.map((s, i) => `fragment L${i} on Lot { ${leaves[i % leaves.length]} ${s.join(' ')} }`).join(' ');
    return { query: `{ lots(first: ${page}) { nodes { ...L0 } } } ${fragments}`, subscription: `subscription { lotUpdated(lotId: "1") { ...L0 } } ${fragments}` };
  });

const chains = fc.record({ links: fc.integer({ min: 2, max: 60 }), leaf: fc.constantFrom('__typename', 'lotsCount') }).map(({ links, leaf }) => ({
  query: `${chain(links, 'Query', leaf)} { ...G0 }`,
  subscription: `subscription { lotUpdated(lotId: "1") { ...G0 } } ${chain(links, 'Lot', 'id')}`,
}));

const aliases = fc.record({ n: fc.integer({ min: 1, max: 300 }), body: fc.constantFrom(...LEAVES, 'lots(first: 100) { nodes { id bids { amount } } }') }).map(({ n, body }) => {
  const onLot = !body.startsWith('lots');
  const fields = Array.from({ length: n }, (_, i) => `a${i}: ${body}`).join(' ');
  return {
    query: onLot ? `{ lots(first: 10) { nodes { ${fields} } } }` : `{ ${fields} }`,
    subscription: onLot ? `subscription { lotUpdated(lotId: "1") { ${fields} } }` : `subscription { ${fields} }`,
  };
});

const introspection = fc
  .record({ schemas: fc.integer({ min: 0, max: 4 }), types: fc.integer({ min: 0, max: 30 }), viaFragment: fc.boolean() })
  .map(({ schemas, types, viaFragment }) => {
    const read = 'types { name fields { name args { name } type { name ofType { name ofType { name } } } } }';
    const schema = Array.from({ length: schemas }, (_, i) => (viaFragment ? `...S${i % 2}` : `s${i}: __schema { ${read} }`)).join(' ');
    const type = Array.from({ length: types }, (_, i) => `t${i}: __type(name: "Lot") { fields { name type { name } } }`).join(' ');
    const fragments = viaFragment ? `fragment S0 on Query { __schema { ${read} } } fragment S1 on Query { ...S0 }` : '';
    const query = `{ __typename ${schema} ${type} } ${schema.includes('...') ? fragments : ''}`;
    return { query, subscription: query };
  });

const nestedLists = fc.record({ first: fc.integer({ min: 1, max: 500 }), last: fc.integer({ min: 1, max: 150 }), repeat: fc.integer({ min: 1, max: 5 }) }).map(({ first, last, repeat }) => {
  const body = `nodes { id bids(last: ${last}) { amount } participants { id } deposits { id } stars { createdAt } }`;
  return {
    query: `query($n: Int!) { ${Array.from({ length: repeat }, (_, i) => `p${i}: lots(first: $n) { ${body} }`).join(' ')} }`,
    subscription: `subscription { lotUpdated(lotId: "1") { bids(last: ${last}) { amount } participants { id } } }`,
    variables: { n: first },
  };
});

const deepVariables = fc.integer({ min: 1, max: 1000 }).map((depth) => {
  let filter: unknown = ['1'];
  for (let i = 0; i < depth; i++) filter = { in: filter };
  return {
    query: 'query($f: LotFilter) { lots(filter: $f, first: 1) { nodes { id } } }',
    subscription: 'subscription($f: LotFilter) { lotUpdated(lotId: "1") { id } }',
    variables: { f: filter },
  };
});

const documents: fc.Arbitrary<Generated> = fc
  .oneof(fragmentTree, chains, aliases, introspection, nestedLists, deepVariables)
  .filter((d) => Buffer.byteLength(d.query) <= 8192 && Buffer.byteLength(d.subscription) <= 8192);

/** Each visit of the analysis is a selection of the document, measured once before validation and once after. */
const VISITS_PER_NODE = 2;

describe('generated GraphQL documents of at most 8 KB', () => {
  it('are each executed or refused with a documented 4xx code, over HTTP and the WebSocket, in analysis work linear in their size', async () => {
    let slowest = { ms: 0, query: '' };
    await fc.assert(
      fc.asyncProperty(documents, async (d) => {
        const before = analysisFigures.visits;
        const started = performance.now();
        const res = await t.client.graphql(d.query, d.variables);
        const ms = performance.now() - started;
        const visits = analysisFigures.visits - before;
        if (ms > slowest.ms) slowest = { ms, query: d.query };
        expect(res.status).toBeLessThan(500);
        for (const code of codesOf(res.body.errors)) expect(DOCUMENTED_4XX).toContain(code);
        if (res.status !== 200) expect(res.body.errors?.length).toBeGreaterThan(0);
        expect(visits).toBeLessThanOrEqual(VISITS_PER_NODE * nodesOf(d.query));

        const socketBefore = analysisFigures.visits;
        const answer = await firstOnSocket(d.subscription, d.variables);
        expect(analysisFigures.visits - socketBefore).toBeLessThanOrEqual(nodesOf(d.subscription));
        for (const code of codesOf(answer)) expect(DOCUMENTED_4XX).toContain(code);
        expect(answer).not.toEqual(expect.objectContaining({ code: expect.any(Number) }));
      }),
      { numRuns: 60, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    );
    note(`slowest generated document over HTTP: ${slowest.ms.toFixed(1)} ms, ${Buffer.byteLength(slowest.query)} bytes: ${slowest.query.slice(0, 300)}`);
  }, 120_000);

  it('refuses finding 1 (30 chained fragments, each spreading the next twice) by its cost, walking each fragment once', async () => {
    const before = analysisFigures.visits;
    const res = await t.client.graphql(FINDING_1);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: `the query costs 1073741823, more than the limit of ${t.config.GRAPHQL_MAX_COST}`, extensions: { code: 'query_too_costly', status: 400 } })]);
    // 30 fragments of three selections, and the operation's one spread: measured once, before validation.
    expect(analysisFigures.visits - before).toBe(89);
  });

  it('refuses a second __schema in one operation, through a fragment too, and takes one', async () => {
    const twice = await t.client.graphql('{ a: __schema { queryType { name } } b: __schema { queryType { name } } }');
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual([expect.objectContaining({ message: 'the query reads __schema 2 times; an operation reads it at most once', extensions: { code: 'query_too_costly', status: 400 } })]);
    const spread = await t.client.graphql('{ ...S ...S } fragment S on Query { __schema { queryType { name } } }');
    expect(codesOf(spread.body.errors)).toEqual(['query_too_costly']);
    const once = await t.client.graphql('{ __schema { queryType { name } } }');
    expect(once.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  it('costs __schema by the size of its answer, and answers the same introspection text from one answer', async () => {
    const small = await startTestApp({ GRAPHQL_MAX_COST: '1000' });
    try {
      const res = await small.client.graphql('{ __schema { queryType { name } } }');
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toMatch(/^the query costs \d{4,}, more than the limit of 1000$/);
    } finally {
      await small.close();
    }
    const query = '{ __schema { types { name fields { name } } } }';
    const first = await t.client.graphql(query);
    const second = await t.client.graphql(query);
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);
  });
});

describe('variables nested deeper than 32 levels (finding 7)', () => {
  // Written as text: JSON.stringify of 5,000 levels overflows this process's stack too.
  const filter = `${'{"in":'.repeat(5000)}["1"]${'}'.repeat(5000)}`;
  const refusal = expect.objectContaining({ message: 'the variables nest more than 32 levels deep', extensions: expect.objectContaining({ code: 'bad_user_input', status: 400, errors: [expect.objectContaining({ field: 'variables' })] }) });

  it('answer 400 bad_user_input naming the variables over HTTP, not 500', async () => {
    const body = `{"query":"query($f: LotFilter) { lots(filter: $f) { nodes { id } } }","variables":{"f":${filter}}}`;
    const res = await t.client.post('/graphql', undefined, { raw: Buffer.from(body), contentType: 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([refusal]);
  });

  it('are refused the same way on the WebSocket', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${t.port}/graphql`, 'graphql-transport-ws');
    const messages: { id?: string; type: string; payload?: unknown }[] = [];
    const next = (type: string) =>
      new Promise<{ payload?: unknown }>((resolve) => {
        const look = () => {
          const found = messages.find((m) => m.type === type);
          if (found) resolve(found);
          else setTimeout(look, 10);
        };
        look();
      });
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    try {
      socket.send(JSON.stringify({ type: 'connection_init' }));
      await next('connection_ack');
      socket.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription($f: LotFilter) { lotUpdated(lotId: \\"1\\") { id } }","variables":{"f":${filter}}}}`);
      expect((await next('error')).payload).toEqual([refusal]);
    } finally {
      socket.close();
    }
  });
});

describe('variables with more than 50 values that do not coerce', () => {
  // graphql-js stops at its 50th coercion error with one that names no variable: Apollo answered it 500.
  it('answer 400 bad_user_input, not 500', async () => {
    const res = await t.client.post('/graphql', { query: 'query($f: LotFilter) { lotsCount(filter: $f) }', variables: { f: { states: Array.from({ length: 60 }, () => 'NOT_A_STATE') } } }, { contentType: 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(res.body.errors.map((e: { extensions: { code: string; status: number } }) => `${e.extensions.code} ${e.extensions.status}`)).toEqual(res.body.errors.map(() => 'bad_user_input 400'));
  });
});

describe('variables of a hundred thousand values (a second outside test, finding 3)', () => {
  // A megabyte of variables, even unused, was walked five times per request (about 40 ms of CPU on an idle machine).
  const ids = Array.from({ length: 100_000 }, (_, i) => String(i + 1));
  const refusal = expect.objectContaining({ message: 'the variables hold more than 10000 values', extensions: expect.objectContaining({ code: 'too_many_items', status: 400, errors: [expect.objectContaining({ field: 'variables' })] }) });

  it('are refused with 400 too_many_items naming the variables, used or not', async () => {
    const unused = await t.client.post('/graphql', { query: '{ lotsCount }', variables: { i: ids } }, { contentType: 'application/json' });
    const used = await t.client.post('/graphql', { query: 'query($f: LotFilter) { lotsCount(filter: $f) }', variables: { f: { in: ids } } }, { contentType: 'application/json' });
    for (const res of [unused, used]) {
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([refusal]);
    }
  });

  it('leave the largest list an argument takes alone', async () => {
    const res = await t.client.post('/graphql', { query: 'query($f: LotFilter) { lotsCount(filter: $f) }', variables: { f: { in: ids.slice(0, 1000) } } }, { contentType: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ lotsCount: expect.any(Number) });
  });

  it('are refused the same way on the WebSocket, within its 64 KB message', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${t.port}/graphql`, 'graphql-transport-ws');
    const errors = new Promise<unknown>((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse(String(data));
        if (message.type === 'connection_ack') {
          socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { lotUpdated(lotId: "1") { id } }', variables: { i: new Array(15_000).fill(0) } } }));
        }
        if (message.type === 'error') resolve(message.payload);
      }),
    );
    await new Promise((resolve) => socket.once('open', resolve));
    try {
      socket.send(JSON.stringify({ type: 'connection_init' }));
      expect(await errors).toEqual([refusal]);
    } finally {
      socket.close();
    }
  });
});

describe('automatic persisted queries (finding 8)', () => {
  const apq = (body: Record<string, unknown>) => t.client.post('/graphql', body, { contentType: 'application/json' });
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');

  it('answer a mismatched hash and version 2 with 400 bad_request and log nothing at error level', async () => {
    const error = jest.spyOn(logger, 'error');
    try {
      const mismatch = await apq({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: sha('{ lotsCount }') } } });
      const version = await apq({ query: '{ __typename }', extensions: { persistedQuery: { version: 2, sha256Hash: sha('{ __typename }') } } });
      for (const res of [mismatch, version]) {
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'bad_request', status: 400 } })]);
      }
      const unknown = await apq({ extensions: { persistedQuery: { version: 1, sha256Hash: sha('{ lotsCount }') } } });
      expect([unknown.status, codesOf(unknown.body.errors)]).toEqual([400, ['persisted_query_not_found']]);
      expect(error).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
    }
  });

  it('register nothing that the cost limit refuses, and run what they register', async () => {
    const refused = await apq({ query: FINDING_1, extensions: { persistedQuery: { version: 1, sha256Hash: sha(FINDING_1) } } });
    expect([refused.status, codesOf(refused.body.errors)]).toEqual([400, ['query_too_costly']]);
    const again = await apq({ extensions: { persistedQuery: { version: 1, sha256Hash: sha(FINDING_1) } } });
    expect(codesOf(again.body.errors)).toEqual(['persisted_query_not_found']);
    const ok = '{ lotsCount }';
    expect((await apq({ query: ok, extensions: { persistedQuery: { version: 1, sha256Hash: sha(ok) } } })).body).toEqual({ data: { lotsCount: 0 } });
    expect((await apq({ extensions: { persistedQuery: { version: 1, sha256Hash: sha(ok) } } })).body).toEqual({ data: { lotsCount: 0 } });
  });
});

describe('findings 1 and 2 sent ten times at once to the service process', () => {
  let db: TestDatabase;
  let service: ServiceProcess;
  beforeAll(async () => {
    db = await createTestDatabase();
    service = await startServiceProcess({ DATABASE_URL: db.url, MASTER_SEED: Keypair.random().secret() });
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
    await db?.drop();
  });

  /** GET / in a loop while `attack` runs: the latency of each answer. */
  async function whileAttacked(query: string) {
    const latencies: number[] = [];
    let done = false;
    const attack = Promise.all(Array.from({ length: 10 }, () => service.client.graphql(query))).finally(() => (done = true));
    do {
      const started = performance.now();
      const res = await service.client.get('/');
      latencies.push(performance.now() - started);
      expect(res.status).toBe(200);
    } while (!done);
    return { answers: await attack, latencies };
  }

  // Liveness, not speed: a generous ceiling per GET on a machine shared by eight engineers' tests
  // (GET / alone reached 600 ms there); before the fix each of these held it for 10 s to minutes.
  // The bench measures p99.
  const CEILING_MS = 2000;

  it.each([
    ['finding 1 (chained fragments)', FINDING_1],
    // 22 links: what the code before the fix answered in about two seconds each.
    ['a chain of 22 links', `${chain(22)} { ...G0 }`],
    ['finding 2 (200 aliases of __schema)', FINDING_2],
  ])('%s: every request is refused with a 4xx code, and GET / keeps answering', async (_name, query) => {
    const { answers, latencies } = await whileAttacked(query);
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(codesOf(a.body.errors)).toEqual(['query_too_costly']);
    }
    expect(Math.max(...latencies)).toBeLessThanOrEqual(CEILING_MS);
  }, 60_000);
});
