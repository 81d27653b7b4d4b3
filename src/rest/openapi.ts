import { ERROR_CODES } from '../core/error-codes';
import { DEFAULT_TEXT_MAX } from '../core/filter-kinds';
import { JSONAPI } from './document';
import { attributesSchema } from './body-attributes';
import RESOURCE_ATTRIBUTES from './resource-attributes.json';
import type { FilterKind, QuerySpec } from './query';
import { AREA_DESCRIPTIONS } from './openapi-areas';
import { INFRASTRUCTURE, type BodySpec, type Method, type Operation } from './router';

type Schema = Record<string, unknown>;

/** Koa's `/lots/:id` is OpenAPI's `/lots/{id}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);

function filterSchema(kind: FilterKind): Schema {
  switch (kind.kind) {
    case 'string':
      return { type: 'string', minLength: 1, maxLength: kind.max ?? DEFAULT_TEXT_MAX };
    case 'enum':
      return { type: 'string', enum: [...kind.values] };
    case 'list':
      return { type: 'string', description: `comma-separated${kind.values ? `: ${kind.values.join(', ')}` : ''}` };
    case 'integer':
      return { type: 'integer' };
    case 'boolean':
      return { type: 'boolean' };
    case 'range':
      return { type: 'string', pattern: '^[^,]*,[^,]*$', description: `min,max (${kind.of === 'integer' ? 'integers' : 'decimals'}); either end may be empty` };
  }
}

function queryParameters(spec: QuerySpec | undefined): Schema[] {
  if (!spec) return [];
  const param = (name: string, schema: Schema, required = false) => ({ name, in: 'query', required, schema });
  const out = [
    ...Object.entries(spec.plain ?? {}).map(([name, kind]) => param(name, filterSchema(kind), kind.required === true)),
    ...Object.entries(spec.filters ?? {}).map(([name, kind]) => param(`filter[${name}]`, filterSchema(kind), kind.required === true)),
  ];
  if (spec.sorts?.length) out.push(param('sort', { type: 'string', enum: spec.sorts.flatMap((s) => [s, `-${s}`]) }));
  if (spec.includes?.length) out.push(param('include', { type: 'string', description: `comma-separated: ${spec.includes.join(', ')}` }));
  if (spec.page === 'cursor') out.push(param('page[cursor]', { type: 'string' }), param('page[limit]', { type: 'integer', minimum: 1 }));
  if (spec.page === 'number') out.push(param('page[number]', { type: 'integer', minimum: 0 }), param('page[size]', { type: 'integer', minimum: 1 }));
  return out;
}

function requestResource(body: BodySpec): Schema {
  const required = ['type', ...(body.id === 'required' ? ['id'] : [])];
  const properties: Schema = { type: { const: body.type } };
  if (body.id) properties.id = { type: 'string' };
  if (body.input || !body.id) properties.attributes = attributesSchema(body);
  return { type: 'object', required, properties };
}

function requestBody(body: BodySpec | 'multipart'): Schema {
  if (body === 'multipart') {
    const form = { type: 'object', required: ['file'], properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' }, 'file[attributes]': { type: 'string', description: 'a JSON:API document: {"data": {"type": "documents", "attributes": {…}}}' } } };
    return { required: true, content: { 'multipart/form-data': { schema: form } } };
  }
  const resource = requestResource(body);
  const data = body.list ? { type: 'array', items: resource } : resource;
  return { required: true, content: { [JSONAPI]: { schema: { type: 'object', required: ['data'], properties: { data } } } } };
}

function responseDocument(response: string | readonly [string] | null | undefined): Schema {
  if (response === null) return { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'null' }, meta: { type: 'object' } } };
  const type = typeof response === 'string' ? response : response?.[0];
  const resource = type === undefined ? { $ref: '#/components/schemas/Resource' } : Object.hasOwn(RESOURCE_ATTRIBUTES, type) ? { $ref: `#/components/schemas/${type}` } : resourceOf(type);
  const data = Array.isArray(response) ? { type: 'array', items: resource } : resource;
  return { type: 'object', required: ['data'], properties: { data, included: { type: 'array', items: { $ref: '#/components/schemas/Resource' } }, links: { type: 'object' }, meta: { type: 'object' } } };
}

/** A resource of `type`, with the attributes its presenters' types give it, when they give any (resource-attributes.ts). */
function resourceOf(type: string, attributes?: Schema): Schema {
  return { allOf: [{ $ref: '#/components/schemas/Resource' }, { type: 'object', properties: { type: { const: type }, ...(attributes ? { attributes } : {}) } }] };
}

/** One schema per resource type the presenters make: its attributes. */
const RESOURCE_SCHEMAS = Object.fromEntries(Object.entries(RESOURCE_ATTRIBUTES as Record<string, Schema>).map(([type, attributes]) => [type, resourceOf(type, attributes)]));

const SIGNED = [{ signature: [] }, { bearer: [] }];

/** The request header of an operation that answers its document on request (RouteOptions.represented). */
const PREFER = {
  name: 'Prefer',
  in: 'header',
  required: false,
  description: '`return=representation` (RFC 7240) asks for the document (200) instead of 204; the answer then carries `Preference-Applied: return=representation`',
  schema: { type: 'string' },
};

const representation = (type: string | readonly [string]): Schema => ({
  description: 'with `Prefer: return=representation`: the document',
  headers: { 'Preference-Applied': { schema: { type: 'string', const: 'return=representation' } } },
  content: { [JSONAPI]: { schema: responseDocument(type) } },
});

function operationOf(op: Operation): Schema {
  const parameters = [...pathParams(op.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })), ...(op.kind === 'jsonapi' ? queryParameters(op.options.query) : [])];
  const { summary, description } = op.options;
  const errors = { '4XX': { $ref: '#/components/responses/Error' } };
  const operation: Schema = { operationId: `${op.method}${op.path.replace(/[^A-Za-z0-9]+/g, '_')}`, tags: [op.area], summary, ...(description ? { description } : {}), ...(parameters.length ? { parameters } : {}) };
  if (op.kind === 'raw') {
    return { ...operation, responses: { 200: { description: summary, content: { [op.options.produces]: {} } }, ...errors } };
  }
  const { options } = op;
  const status = options.status ?? 200;
  const success = status === 204 ? { description: 'done; no content' } : { description: 'the document', content: { [JSONAPI]: { schema: responseDocument(options.response) } } };
  return {
    ...operation,
    // Public operations still honour a signature or a token (docs/rest.md); `{}` says they need none.
    security: options.authenticated === 'key' ? [{ signature: [] }] : options.authenticated ? SIGNED : [{}, ...SIGNED],
    ...(options.body ? { requestBody: requestBody(options.body) } : {}),
    ...(options.represented !== undefined ? { parameters: [...parameters, PREFER] } : {}),
    responses: { [status]: success, ...(options.represented !== undefined ? { 200: representation(options.represented) } : {}), ...errors },
  };
}

const COMPONENTS = {
  securitySchemes: {
    signature: {
      type: 'apiKey',
      in: 'header',
      name: 'Signature',
      description:
        'An ed25519 request signature (docs/signing.md): `keyId="G…",algorithm="ed25519-sha256",headers="(request-target) date digest",signature="<base64>"` over the signing string of the named headers; requests with a body sign `digest` (`SHA-256=<base64>`). Also accepted as `Authorization: Signature …`.',
    },
    bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A token from POST /jwt (EdDSA; keys at /.well-known/jwks.json).' },
  },
  schemas: {
    ...RESOURCE_SCHEMAS,
    Resource: {
      type: 'object',
      required: ['type', 'id'],
      properties: { type: { type: 'string' }, id: { type: 'string' }, attributes: { type: 'object' }, relationships: { type: 'object' }, links: { type: 'object' } },
    },
    Error: {
      type: 'object',
      required: ['status', 'code', 'title', 'detail'],
      properties: {
        status: { type: 'string' },
        code: { type: 'string', enum: ERROR_CODES.map((row) => row.code) },
        title: { type: 'string' },
        detail: { type: 'string' },
        source: { type: 'object', properties: { pointer: { type: 'string' }, parameter: { type: 'string' } } },
        meta: { type: 'object' },
      },
    },
  },
  responses: {
    Error: {
      description: 'JSON:API errors (docs/errors.md lists every code); the first status is the HTTP status',
      content: { [JSONAPI]: { schema: { type: 'object', required: ['errors'], properties: { errors: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/Error' } } } } } },
    },
  },
};

/**
 * The OpenAPI 3.1 description of the registered operations, generated from their route options and
 * validation schemas. Operations are grouped by area (a tag each), in the order the modules are
 * registered, the infrastructure last: a reader meets accounts and lots before /healthz.
 */
export function openApiDocument(operations: readonly Operation[], version: string): Schema {
  const ordered = [...operations.filter((op) => op.area !== INFRASTRUCTURE), ...operations.filter((op) => op.area === INFRASTRUCTURE)];
  const paths: Record<string, Partial<Record<Method, Schema>>> = {};
  for (const op of ordered) (paths[openApiPath(op.path)] ??= {})[op.method] = operationOf(op);
  const areas = [...new Set(ordered.map((op) => op.area))];
  return {
    openapi: '3.1.0',
    info: { title: 'Vehicle auction service', version, description: 'JSON:API REST surface; the same services answer GraphQL at /graphql (schema/schema.graphql). A guide: docs/rest.md.' },
    tags: areas.map((name) => ({ name, ...(AREA_DESCRIPTIONS[name] ? { description: AREA_DESCRIPTIONS[name] } : {}) })),
    paths,
    components: COMPONENTS,
  };
}
