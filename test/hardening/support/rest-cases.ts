import fc from 'fast-check';
import { Keypair } from '@stellar/stellar-sdk';
import type { JsonApiOperation } from '../../../src/rest/router';
import { ENG_LOT } from '../../helpers/lots';
import { anyJson, badId, badValueLike, malformedJson, notADocument, pathSegment, unicodeText } from './bad-values';
import { badQuery, queryString, type QueryPairs } from './bad-queries';

export type Role = 'user' | 'admin' | 'platform' | 'fresh' | 'none';

/** One generated request. */
export interface Case {
  family: string;
  target: string;
  body?: unknown;
  raw?: Buffer;
  contentType?: string;
  signer: Role;
  /** The key a `fresh` signer signs with, when the body names it. */
  fresh?: Keypair;
}

/** What the walk knows of the world: real ids to put in paths, so that the input behind them is read. */
export interface World {
  userId: string;
  lotId: string;
}

/** A valid document of an operation, so that one bad field is the only fault (routes without one get the generic families only). */
export interface Example {
  signer: Role;
  body: (world: World, fresh: Keypair) => Record<string, unknown>;
}

export const EXAMPLES: Record<string, Example> = {
  'post /lots': { signer: 'admin', body: () => ({ data: { type: 'lots', attributes: ENG_LOT } }) },
  'post /lots/:id/bid_requests': { signer: 'user', body: () => ({ data: { type: 'bid_requests', attributes: { amount: '1100', max_amount: '2000' } } }) },
  'patch /accounts/:id': {
    signer: 'user',
    body: (w) => ({ data: { type: 'accounts', id: w.userId, attributes: { first_name: 'Ann', last_name: 'Lee', company: 'Cars', city: 'Tbilisi', avatar_link: 'https://example.com/a.png' } } }),
  },
  'post /accounts': {
    signer: 'fresh',
    body: (_w, fresh) => ({
      data: {
        type: 'accounts',
        id: fresh.publicKey(),
        attributes: { account_type: 'user', first_name: 'Ann', last_name: 'Lee', email: `x${fresh.publicKey().slice(1, 12).toLowerCase()}@example.com`, password: 'correct horse battery' },
      },
    }),
  },
};

/** Real ids for the path, by the segment before each parameter; else an id that names nothing. */
export function realTarget(path: string, world: World): string {
  return path.replace(/\/([^/:]+)\/:([A-Za-z]+)/g, (_m, segment: string, name: string) => {
    if (segment === 'lots' || name === 'lotId') return `/${segment}/${world.lotId}`;
    if (segment === 'accounts' || name === 'account' || name === 'accountId') return `/${segment}/${world.userId}`;
    return `/${segment}/999999`;
  }).replace(/:([A-Za-z]+)/g, (_m, name: string) => (name === 'lotId' ? world.lotId : name.startsWith('account') ? world.userId : '999999'));
}

const paramNames = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);

/** Leaves of an example's attributes, one level into objects (lot details), as paths. */
function leaves(attributes: Record<string, unknown>): string[][] {
  return Object.entries(attributes).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? [[key], ...Object.keys(value).map((k) => [key, k])] : [[key]],
  );
}

function withValue(body: Record<string, any>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let at = copy.data.attributes;
  for (const key of path.slice(0, -1)) at = at[key];
  at[path[path.length - 1]] = value;
  return copy;
}

function signerFor(route: JsonApiOperation, example: Example | undefined): fc.Arbitrary<Role> {
  if (example) return fc.constant(example.signer);
  if (route.options.authenticated === 'key') return fc.constantFrom('fresh', 'admin', 'platform');
  if (route.options.authenticated) return fc.constantFrom('user', 'admin', 'platform');
  return fc.constantFrom('none', 'user', 'admin');
}

const withQuery = (target: string, pairs: QueryPairs) => (pairs.length ? `${target}?${queryString(pairs)}` : target);

/** What a probe learned of a route's body: whether it reads one, and the attributes it requires. */
export interface BodyShape {
  reads: boolean;
  required: string[];
  /** The `data.type` the route wants, when it names one. */
  type?: string;
}

/**
 * The families of bad requests for one route. Each holds a fault the route must refuse on its
 * own, so that every answer must be a 4xx, wherever else the request is sound.
 */
export function casesFor(route: JsonApiOperation, world: World, shape: BodyShape, fresh: () => Keypair): Record<string, fc.Arbitrary<Case>> {
  const key = `${route.method} ${route.path}`;
  const example = EXAMPLES[key];
  const signer = signerFor(route, example);
  const real = realTarget(route.path, world);
  const sample = () => {
    const key = fresh();
    return { body: example?.body(world, key), fresh: key };
  };
  const families: Record<string, fc.Arbitrary<Case>> = {};

  const params = paramNames(route.path);
  if (params.length) {
    families.path = fc.record({ ids: fc.array(badId, { minLength: params.length, maxLength: params.length }), signer }).map(({ ids, signer: s }) => {
      let i = 0;
      const target = route.path.replace(/:([A-Za-z]+)/g, () => pathSegment(ids[i++]));
      return { family: 'path', target, ...sample(), signer: s };
    });
  }
  families.query = fc.record({ pairs: badQuery(route.options.query), signer }).map(({ pairs, signer: s }) => ({ family: 'query', target: withQuery(real, pairs), ...sample(), signer: s }));
  families.json = fc.record({ text: malformedJson, type: fc.constantFrom('application/json', 'application/vnd.api+json'), signer }).map(({ text, type, signer: s }) => ({
    family: 'json',
    target: real,
    raw: Buffer.from(text),
    contentType: type,
    signer: s,
  }));
  families.media = fc.record({ type: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/json-patch+json', 'multipart/form-data; boundary=x'), signer }).map(({ type, signer: s }) => ({
    family: 'media',
    target: real,
    raw: Buffer.from(type.startsWith('multipart') && key !== 'post /documents' ? '--x\r\n\r\n--x--' : '{"data":{}}'),
    contentType: type,
    signer: s,
  }));
  if (shape.reads) {
    families.document = fc.record({ doc: notADocument, signer }).map(({ doc, signer: s }) => ({ family: 'document', target: real, body: doc, signer: s }));
  }
  if (shape.required.length) {
    const required = shape.required;
    families.missing = fc
      .record({
        type: fc.oneof(fc.constant(shape.type), fc.constant(undefined), unicodeText),
        omit: fc.subarray(required, { minLength: 1 }),
        values: fc.array(anyJson, { minLength: required.length, maxLength: required.length }),
        extra: fc.dictionary(fc.oneof(unicodeText, fc.constantFrom('__proto__', 'constructor', 'id', 'account_id', 'platform_id', 'organizer_id', 'lot_state', 'winner_id')), anyJson, { maxKeys: 4 }),
        signer,
      })
      .map(({ type, omit, values, extra, signer: s }) => {
        const attributes: Record<string, unknown> = { ...extra };
        for (const name of required) delete attributes[name];
        required.forEach((name, i) => {
          if (!omit.includes(name)) attributes[name] = values[i];
        });
        return { family: 'missing', target: real, body: { data: { type, attributes } }, signer: s };
      });
  }
  if (example) {
    const base = example.body(world, fresh());
    const paths = leaves((base.data as { attributes: Record<string, unknown> }).attributes);
    families.field = fc
      .constantFrom(...paths)
      .chain((path) => {
        const exampleValue = path.reduce<any>((at, k) => at?.[k], (base.data as any).attributes);
        return fc.record({ path: fc.constant(path), value: badValueLike(exampleValue, path[path.length - 1]) });
      })
      .map(({ path, value }) => {
        const { body, fresh: key } = sample();
        return { family: 'field', target: real, body: withValue(body as Record<string, unknown>, path, value), signer: example.signer, fresh: key };
      });
  }
  return families;
}
