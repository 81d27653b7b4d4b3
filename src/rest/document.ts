import { z } from 'zod';
import { DomainError, type ErrorItem } from '../core/errors';

export const JSONAPI = 'application/vnd.api+json';

export interface Resource<A = Record<string, unknown>> {
  type: string;
  id: string;
  attributes?: A;
  relationships?: Record<string, { data: ResourceIdentifier | ResourceIdentifier[] | null }>;
  links?: Record<string, string>;
}

export interface ResourceIdentifier {
  type: string;
  id: string;
}

export interface TopLevel {
  data: Resource | Resource[] | null;
  included?: Resource[];
  links?: Record<string, string>;
  meta?: Record<string, unknown>;
}

function pointerOf(path: PropertyKey[]): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** One error per faulty field, each pointing into the document. */
export function zodIssuesToItems(issues: z.core.$ZodIssue[], input: unknown, where: 'pointer' | 'parameter'): ErrorItem[] {
  return issues.map((issue) => {
    const missing = issue.path.length > 0 && valueAt(input, issue.path) === undefined;
    const name = where === 'pointer' ? pointerOf(issue.path) : issue.path.map(String).join('.');
    const field = issue.path.length ? String(issue.path[issue.path.length - 1]) : 'document';
    return {
      code: missing ? 'missing_field' : 'invalid_field',
      detail: missing ? `${field} is required` : `${field}: ${issue.message}`,
      source: where === 'pointer' ? { pointer: name } : { parameter: name },
    };
  });
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** Validates a request document; throws a 400 listing every faulty field. */
export function parseDocument<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined) {
    throw DomainError.of('invalid', 'missing_body', 'a JSON:API document is required', { pointer: '' });
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const items = zodIssuesToItems(result.error.issues, body, 'pointer');
  throw new DomainError('invalid', items as [ErrorItem, ...ErrorItem[]]);
}

/** `{data: {type, id?, attributes}}` with the given resource type. */
export function resourceDocument<A extends z.ZodType, I extends z.ZodType>(type: string, attributes: A, id: I) {
  return z.object({
    data: z.object({
      type: z.literal(type, { error: `must be "${type}"` }),
      id,
      attributes,
    }),
  });
}

export function resource<A extends object>(type: string, id: string | number, attributes?: A): Resource<A> {
  return attributes === undefined ? { type, id: String(id) } : { type, id: String(id), attributes };
}

const envelopeOf = (type: string) =>
  z.object({
    data: z.object({
      type: z.literal(type, { error: `must be "${type}"` }),
      id: z.unknown().optional(),
      attributes: z.record(z.string(), z.unknown()).optional(),
    }),
  });

/** Built once per type: building a zod schema costs more than using it. */
const envelopes = new Map<string, ReturnType<typeof envelopeOf>>();

/**
 * The envelope of an input resource: `data.type` is checked here, `data.id` and the attributes
 * are the service's to validate (so both edges share the rules).
 */
export function inputDocument(type: string) {
  let schema = envelopes.get(type);
  if (!schema) {
    schema = envelopeOf(type);
    envelopes.set(type, schema);
  }
  return schema;
}

/**
 * A document's `data.id`, when given, must name the resource of the path. JSON:API answers a
 * mismatch with 409; the routes that answered 400 `invalid_field` before keep it (`'invalid'`).
 */
export function requirePathId(id: unknown, pathId: string, detail: string, answer: 'conflict' | 'invalid' = 'conflict'): void {
  if (id === undefined || id === null || String(id) === pathId) return;
  throw answer === 'conflict'
    ? DomainError.of('conflict', 'id_mismatch', detail, { pointer: '/data/id' })
    : DomainError.of('invalid', 'invalid_field', detail, { pointer: '/data/id' });
}
