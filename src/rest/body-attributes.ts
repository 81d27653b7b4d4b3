import { z } from 'zod';
import { DomainError, type ErrorItem } from '../core/errors';
import { wireName } from './fields';
import { nearest } from '../core/nearest';
import RESOURCE_ATTRIBUTES from './resource-attributes.json';
import type { BodySpec } from './router';

type Schema = Record<string, unknown>;

/** A schema with the members of its objects under their wire names, at every depth (a rule's `increments[].up_to`). */
function wired(schema: Schema): Schema {
  const out: Schema = { ...schema };
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (properties) out.properties = Object.fromEntries(Object.entries(properties).map(([name, member]) => [wireName(name), wired(member)]));
  if (Array.isArray(schema.required)) out.required = (schema.required as string[]).map(wireName);
  if (schema.items && typeof schema.items === 'object') out.items = wired(schema.items as Schema);
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(schema[key])) out[key] = (schema[key] as Schema[]).map(wired);
  return out;
}

/** The JSON Schema of the attributes a domain input validates, under their wire names (the body's `omit` left out). */
export function attributesSchema(body: BodySpec): Schema {
  if (!body.input) return { type: 'object' };
  const { $schema: _, ...schema } = z.toJSONSchema(body.input, { io: 'input', unrepresentable: 'any' }) as Schema;
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!properties) return schema;
  const kept = Object.keys(properties).filter((name) => !body.omit?.includes(name));
  return wired({
    ...schema,
    properties: Object.fromEntries(kept.map((name) => [name, properties[name]])),
    required: ((schema.required as string[] | undefined) ?? []).filter((name) => kept.includes(name)),
  });
}

/** The attributes the resources of `type` show: those a body does not take are read-only there. */
const shown = (type: string): readonly string[] => {
  const schema = (RESOURCE_ATTRIBUTES as Record<string, { properties?: Record<string, unknown> }>)[type];
  return Object.keys(schema?.properties ?? {});
};

/** The members of a resource object (JSON:API 1.1) and those an operation reads. */
const MEMBERS = ['type', 'id', 'lid', 'attributes', 'relationships', 'links', 'meta'];
const READ_MEMBERS = ['type', 'id', 'attributes'];

const pointerToken = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** The members of a request document this service takes: `data`, and those JSON:API lets any document carry about itself. */
const DOCUMENT_MEMBERS = ['data', 'meta', 'jsonapi', 'links'];

/** A request document's top-level members that are none of DOCUMENT_MEMBERS (`included`, `date`): refused, whose content would be lost. */
function unknownDocumentMembers(document: unknown): ErrorItem[] {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return [];
  return Object.keys(document)
    .filter((member) => !DOCUMENT_MEMBERS.includes(member))
    .map((member) => ({
      code: 'invalid_field',
      detail: `${member} is not a member of a request document${nearest(member, DOCUMENT_MEMBERS)}; its members: ${DOCUMENT_MEMBERS.join(', ')}`,
      source: { pointer: `/${pointerToken(member)}` },
    }));
}

/** The closed object a schema stands for (a nullable one's object branch): one whose input refuses the members it does not have. */
function closedObject(schema: Schema): Record<string, Schema> | undefined {
  if (schema.properties && schema.additionalProperties === false) return schema.properties as Record<string, Schema>;
  const branches = ((schema.anyOf ?? schema.oneOf ?? []) as Schema[]).map(closedObject).filter((b) => b !== undefined);
  return branches.length === 1 ? branches[0] : undefined;
}

/** The schema of a list's items (a nullable list's), when there is one. */
function itemsOf(schema: Schema): Schema | undefined {
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) return schema.items as Schema;
  const branches = ((schema.anyOf ?? schema.oneOf ?? []) as Schema[]).map(itemsOf).filter((b) => b !== undefined);
  return branches.length === 1 ? branches[0] : undefined;
}

/**
 * The members of a nested value its closed objects do not have (`details.colour`, a band's
 * `extra`), each named by its path as written. Objects the input leaves open (a saved search's
 * `filter`, read by its own parser) are not looked into.
 */
function unknownMembers(value: unknown, schema: Schema, at: string, name: string): ErrorItem[] {
  if (Array.isArray(value)) {
    const item = itemsOf(schema);
    return item ? value.flatMap((element, i) => unknownMembers(element, item, `${at}/${i}`, `${name}/${i}`)) : [];
  }
  const properties = value !== null && typeof value === 'object' ? closedObject(schema) : undefined;
  if (!properties) return [];
  const names = Object.keys(properties);
  return Object.entries(value as Record<string, unknown>).flatMap(([key, member]): ErrorItem[] =>
    Object.hasOwn(properties, key)
      ? unknownMembers(member, properties[key], `${at}/${pointerToken(key)}`, `${name}/${key}`)
      : [{ code: 'invalid_field', detail: `${key} is not a member of ${name}${nearest(key, names)}; its members: ${names.join(', ')}`, source: { pointer: `${at}/${pointerToken(key)}` } }],
  );
}

/** The resource objects of a request document, each with where it sits: `data` itself, or each item of a list. */
function resourcesOf(body: unknown): [string, unknown][] {
  const data = body !== null && typeof body === 'object' ? (body as { data?: unknown }).data : undefined;
  return Array.isArray(data) ? data.map((item, i): [string, unknown] => [`/data/${i}`, item]) : [['/data', data]];
}

/**
 * A check of a request body against what its operation takes, built once per route: an attribute
 * the operation does not take, whether misspelt (`max_bid` for `max_amount`), camelCased or one
 * the resource shows but this operation does not change (an account's `platform_id`), is refused
 * with 400 `invalid_field` named as the client wrote it, rather than dropped and the request
 * carried out without it. So is a resource's `relationships`, which no operation reads, and a
 * member JSON:API does not have (`atributes`), whose content would be lost, at the top of the
 * document (`included`) as in a resource. Inside an attribute, the members of an object the input
 * holds strict are checked alike, at every depth. An input whose attributes are no fixed set (no
 * `properties` in its schema) is left to the input alone.
 */
export function strictBody(body: BodySpec): (document: unknown) => void {
  const properties = body.input ? (attributesSchema(body).properties as Record<string, Schema> | undefined) : {};
  if (!properties) return (document) => refuse(unknownDocumentMembers(document));
  const names = Object.keys(properties);
  const readOnly = new Set(shown(body.type).filter((name) => !names.includes(name)));
  const taken = names.length ? `; its attributes: ${names.join(', ')}` : `; this operation takes no attributes of ${body.type}`;
  const refusal = (name: string): string =>
    readOnly.has(name) ? `${name} is read-only: this operation does not change it${taken}` : `${name} is not an attribute of ${body.type}${nearest(name, names)}${taken}`;
  return (document) => {
    const items = unknownDocumentMembers(document);
    for (const [at, resource] of resourcesOf(document)) {
      if (resource === null || typeof resource !== 'object') continue;
      for (const member of Object.keys(resource)) {
        if (!MEMBERS.includes(member)) items.push({ code: 'invalid_field', detail: `${member} is not a member of a resource${nearest(member, READ_MEMBERS)}; its members: ${READ_MEMBERS.join(', ')}`, source: { pointer: `${at}/${pointerToken(member)}` } });
      }
      const { attributes, relationships } = resource as { attributes?: unknown; relationships?: unknown };
      if (relationships !== undefined) items.push({ code: 'invalid_field', detail: `relationships are not read: this operation takes ${names.length ? 'attributes' : 'data.id'}`, source: { pointer: `${at}/relationships` } });
      if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) continue;
      for (const [name, value] of Object.entries(attributes)) {
        const pointer = `${at}/attributes/${pointerToken(name)}`;
        if (!Object.hasOwn(properties, name)) items.push({ code: 'invalid_field', detail: refusal(name), source: { pointer } });
        else items.push(...unknownMembers(value, properties[name], pointer, name));
      }
    }
    refuse(items);
  };
}

function refuse(items: ErrorItem[]): void {
  if (items.length) throw new DomainError('invalid', items as [ErrorItem, ...ErrorItem[]]);
}
