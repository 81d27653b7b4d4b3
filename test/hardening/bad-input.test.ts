import fc from 'fast-check';
import { Keypair } from '@stellar/stellar-sdk';
import type { JsonApiOperation } from '../../src/rest/router';
import type { TestApp } from '../helpers/app';
import type { RequestOptions, TestResponse } from '../helpers/client';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { appWith } from '../helpers/world';
import { faultOfRefusal, RUNS, SEED, tally } from './support/answers';
import { badId, pathSegment, unicodeText } from './support/bad-values';
import { badQuery, queryString } from './support/bad-queries';
import { multipartCases, UPLOAD_LIMIT } from './support/multipart';
import { casesFor, realTarget, type BodyShape, type Case, type Role } from './support/rest-cases';
import { changedTables, checksums } from './support/tables';
import { note } from '../helpers/notes';

jest.setTimeout(600_000);

/**
 * Routes on the Koa router that are no REST operation of the AppRouter: their answers are not
 * JSON:API documents (health, keys, file bytes, the live page) or they are GraphQL's own
 * (support/bad-mutations.ts). They must still never answer 5xx nor change a row on bad input.
 */

const w = appWith(
  async (t) => {
    const platform = await createPlatform(t);
    const admin = await createAccount(t, platform, { type: 'admin' });
    const user = await createAccount(t, platform);
    const lot = await createLot(t, admin.keypair);
    return { platform, admin: admin.keypair, user: user.keypair, world: { userId: user.id, lotId: String(lot.id) } };
  },
  { UPLOAD_LIMIT: String(UPLOAD_LIMIT) },
);

function send(t: TestApp, method: string, c: Case): Promise<TestResponse> {
  const keys: Record<Exclude<Role, 'none' | 'fresh'>, Keypair> = { user: w.user, admin: w.admin, platform: w.platform };
  const keypair = c.signer === 'none' ? undefined : c.signer === 'fresh' ? (c.fresh ?? Keypair.random()) : keys[c.signer];
  const opts: RequestOptions = { body: c.body, raw: c.raw, contentType: c.contentType, sign: keypair ? { keypair } : undefined };
  return t.client.request(method.toUpperCase(), c.target, opts);
}

/** Whether the route reads a body, and the attributes it requires, learned from its refusals. */
async function probe(t: TestApp, route: JsonApiOperation, target: string): Promise<BodyShape> {
  const signers: Role[] = route.options.authenticated === 'key' ? ['fresh'] : ['user', 'admin'];
  const empties = await Promise.all(signers.map((signer) => send(t, route.method, { family: 'probe', target, signer })));
  const readers = signers.filter((_, i) => empties[i].status === 400 && typeof empties[i].body?.errors?.[0]?.source?.pointer === 'string');
  if (!readers.length) return { reads: false, required: [] };
  // A refused type names the one it wants (`must be "lots"`): the second probe sends it, so that the attributes are read.
  let required: string[] = [];
  let data: Record<string, unknown> = { type: '', attributes: {} };
  for (let round = 0; round < 3; round++) {
    const bare = await send(t, route.method, { family: 'probe', target, body: { data }, signer: readers[0] });
    const errors: { code?: string; detail?: string; source?: { pointer?: string } }[] = bare.body?.errors ?? [];
    required = errors
      .filter((e) => e.code === 'missing_field')
      .map((e) => /^\/data\/attributes\/([^/]+)$/.exec(e.source?.pointer ?? '')?.[1])
      .filter((name): name is string => !!name);
    const wanted = errors.find((e) => e.source?.pointer === '/data/type' && /must be "/.test(e.detail ?? ''));
    if (!wanted || required.length) break;
    data = { ...data, type: /must be "([^"]+)"/.exec(wanted.detail ?? '')?.[1] };
  }
  return { reads: true, required: [...new Set(required)], type: data.type as string | undefined };
}

interface Outcome {
  route: string;
  tried: number;
  families: string[];
  statuses: number[];
  faults: string[];
}

async function walk(label: string, families: Record<string, fc.Arbitrary<Case>>, method: string, accept: (res: TestResponse) => string | null): Promise<Outcome> {
  const t = w.t;
  const outcome: Outcome = { route: label, tried: 0, families: Object.keys(families), statuses: [], faults: [] };
  const before = await checksums(t.orm);
  for (const [family, arb] of Object.entries(families)) {
    const result = await fc.check(
      fc.asyncProperty(arb, async (c) => {
        const res = await send(t, method, c);
        outcome.tried++;
        outcome.statuses.push(res.status);
        const fault = accept(res);
        if (fault) throw new Error(`${method.toUpperCase()} ${c.target.slice(0, 200)} (${family}, as ${c.signer}) ${fault}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    if (result.failed) outcome.faults.push(String((result.errorInstance as Error | undefined)?.message ?? result.counterexample));
  }
  const changed = changedTables(before, await checksums(t.orm));
  if (changed.length) outcome.faults.push(`rejected requests changed ${changed.join(', ')}`);
  return outcome;
}

function report(outcomes: Outcome[]): void {
  const lines = outcomes.map((o) => `${o.route.padEnd(52)} ${String(o.tried).padStart(5)} tried  ${tally(o.statuses).padEnd(32)} ${o.families.join(' ')}`);
  const total = outcomes.reduce((n, o) => n + o.tried, 0);
  note(`bad input, REST (seed ${SEED}, ${RUNS} runs per family):\n${lines.join('\n')}\n${outcomes.length} routes, ${total} inputs`);
}

describe('every REST route refuses bad input with a 4xx error document and changes no row', () => {
  const outcomes: Outcome[] = [];
  afterAll(() => report(outcomes));

  test('every route of the Koa router is a declared operation', () => {
    const declared = new Set(w.t.app.router.operations.map((r) => `${r.method.toUpperCase()} ${r.path}`));
    // `router.koa.all` registers every method Node knows; it is one entry, ALL.
    const stack = w.t.app.router.koa.stack.flatMap((layer) =>
      layer.methods.length > 10 ? [`ALL ${layer.path}`] : layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`),
    );
    expect(stack.length).toBeGreaterThan(60);
    expect(stack.filter((r) => !declared.has(r))).toEqual([]);
  });

  test('declared operations', async () => {
    const t = w.t;
    const faults: string[] = [];
    const routes = t.app.router.jsonApiOperations;
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const shape = await probe(t, route, realTarget(route.path, w.world));
      const all = { ...casesFor(route, w.world, shape, () => Keypair.random()), ...(route.method === 'post' && route.path === '/documents' ? multipartCases() : {}) };
      const outcome = await walk(`${route.method.toUpperCase()} ${route.path}`, all, route.method, faultOfRefusal);
      outcomes.push(outcome);
      faults.push(...outcome.faults);
    }
    expect(outcomes.filter((o) => o.tried === 0).map((o) => o.route)).toEqual([]);
    expect(faults).toEqual([]);
  });

  test('infrastructure routes never answer 5xx on bad paths or parameters', async () => {
    const faults: string[] = [];
    const accept = (res: TestResponse) => (res.status >= 500 ? `answered ${res.status}: ${res.text.slice(0, 300)}` : res.status >= 400 ? faultOfRefusal(res) : null);
    // The router's other routes (health, keys, files, pages, metrics): GraphQL has a suite of its own.
    const infrastructure = w.t.app.router.operations.filter((o) => o.kind === 'raw' && o.method === 'get' && o.path !== '/graphql').map((o) => `GET ${o.path}`);
    expect(infrastructure.length).toBeGreaterThan(5);
    for (const name of infrastructure) {
      const path = name.slice(4);
      const target = fc.record({ id: badId, pairs: badQuery(undefined), extra: unicodeText }).map(({ id, pairs }) => {
        const base = path.replace(/:([A-Za-z]+)/g, () => pathSegment(id));
        return { family: 'infrastructure', target: `${base}?${queryString(pairs)}`, signer: 'none' as Role };
      });
      const outcome = await walk(name, { infrastructure: target }, 'get', accept);
      outcomes.push(outcome);
      faults.push(...outcome.faults);
    }
    expect(faults).toEqual([]);
  });
});
