import { z } from 'zod';
import { DomainError, type ErrorItem } from '../core/errors';
import { wireName } from './fields';
import { nearest } from './nearest';
import RESOURCE_ATTRIBUTES from './resource-attributes.json';
import type { BodySpec } from './router';

type Schema = Record<string, unknown>;

/** The JSON Schema of the attributes a domain input validates, under their wire names (the body's `omit` left out). */
export function attributesSchema(body: BodySpec): Schema {
  if (!body.input) return { type: 'object' };
  const { $schema: _, ...schema } = z.toJSONSchema(body.input, { io: 'input', unrepresentable: 'any' }) as Schema;
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (!properties) return schema;
  const kept = Object.keys(properties).filter((name) => !body.omit?.includes(name));
  return {
    ...schema,
    properties: Object.fromEntries(kept.map((name) => [wireName(name), properties[name]])),
    required: ((schema.required as string[] | undefined) ?? []).filter((name) => kept.includes(name)).map(wireName),
  };
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
 * member JSON:API does not have (`atributes`), whose content would be lost. An input
 * whose attributes are no fixed set (no `properties` in its schema) is left to the input alone.
 */
export function strictBody(body: BodySpec): (document: unknown) => void {
  const properties = body.input ? (attributesSchema(body).properties as Schema | undefined) : {};
  if (!properties) return () => undefined;
  const names = Object.keys(properties);
  const readOnly = new Set(shown(body.type).filter((name) => !names.includes(name)));
  const taken = names.length ? `; its attributes: ${names.join(', ')}` : `; this operation takes no attributes of ${body.type}`;
  const refusal = (name: string): string =>
    readOnly.has(name) ? `${name} is read-only: this operation does not change it${taken}` : `${name} is not an attribute of ${body.type}${nearest(name, names)}${taken}`;
  return (document) => {
    const items: ErrorItem[] = [];
    for (const [at, resource] of resourcesOf(document)) {
      if (resource === null || typeof resource !== 'object') continue;
      for (const member of Object.keys(resource)) {
        if (!MEMBERS.includes(member)) items.push({ code: 'invalid_field', detail: `${member} is not a member of a resource${nearest(member, READ_MEMBERS)}; its members: ${READ_MEMBERS.join(', ')}`, source: { pointer: `${at}/${pointerToken(member)}` } });
      }
      const { attributes, relationships } = resource as { attributes?: unknown; relationships?: unknown };
      if (relationships !== undefined) items.push({ code: 'invalid_field', detail: `relationships are not read: this operation takes ${names.length ? 'attributes' : 'data.id'}`, source: { pointer: `${at}/relationships` } });
      if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) continue;
      for (const name of Object.keys(attributes)) {
        if (!Object.hasOwn(properties, name)) items.push({ code: 'invalid_field', detail: refusal(name), source: { pointer: `${at}/attributes/${pointerToken(name)}` } });
      }
    }
    if (items.length) throw new DomainError('invalid', items as [ErrorItem, ...ErrorItem[]]);
  };
}
