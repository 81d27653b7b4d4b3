import type { ErrorItem } from '../core/errors';

/**
 * Where a route's domain input came from on the wire, so that a fault in a domain field is shown
 * where the client wrote it: the body document's attributes (`id` is `/data/id`), the query string
 * (`filter.lotState` is `filter[lot_state]`), a bulk body's list (`2.amount` and `items.2.amount`
 * are `/data/2/attributes/amount`; in a list of identifiers, `ids.2` is `/data/2/id`), or a multipart
 * form (its `file` part is `/file`, the rest is the attributes of its `file[attributes]` document).
 */
export type FieldPlacement = 'body' | 'query' | 'list' | 'form';

/**
 * A route whose wire names some field otherwise than the domain input does: the input's top-level
 * field → its dotted path on the wire (`accountId` given as the body's `id`, `platformId` as `filter.platformId`).
 */
export type FieldNames = Readonly<Record<string, string>>;

/** A route's placement, with the wire's own names where they differ from the input's. */
export type FieldRendering = FieldPlacement | { in: FieldPlacement; names: FieldNames };

/** Wire names that are not the snake_case of their domain field (the lot filters of the external sources). */
const IRREGULAR: Record<string, string> = { partnerAStatus: 'partnerA_status', trimPartnerA: 'trim_partnerA', trimPartnerB: 'trim_partnerB' };

/** The name a domain field has on the wire: its snake_case, save the irregular ones. */
export const wireName = (field: string) => (Object.hasOwn(IRREGULAR, field) ? IRREGULAR[field] : field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}` : S;

/**
 * An object's type under its fields' wire names, as `wireName` renames them (the irregular names
 * are fields of no presented object): what the presenters' types say of their attributes.
 */
export type Wired<T> = { [K in keyof T as K extends string ? Snake<K> : never]: T[K] };

/** `Wired` at every depth (a rules document). */
export type WiredDeep<T> = T extends readonly (infer E)[] ? WiredDeep<E>[] : T extends object ? { [K in keyof T as K extends string ? Snake<K> : never]: WiredDeep<T[K]> } : T;

/** The fields of a domain object under their wire names (one level). */
export const allToWire = <T extends object>(fields: T): Wired<T> => Object.fromEntries(Object.entries(fields).map(([k, v]) => [wireName(k), v])) as Wired<T>;

const DOMAIN_NAMES: Record<string, string> = Object.fromEntries(Object.entries(IRREGULAR).map(([domain, wire]) => [wire, domain]));

/** The domain field a wire name stands for: the inverse of `wireName`. */
const domainName = (wire: string) => (Object.hasOwn(DOMAIN_NAMES, wire) ? DOMAIN_NAMES[wire] : wire.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));

/**
 * Every attribute of a document under its domain name, for inputs that take what they are given.
 * A camelCase name is no attribute of the wire and is left out, as an unknown attribute always was.
 */
export function allFromWire(attributes: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes ?? {})) if (Object.hasOwn(DOMAIN_NAMES, key) || !/[A-Z]/.test(key)) out[domainName(key)] = value;
  return out;
}

/** A domain input read off a REST attributes object (or parsed filters) by the wire names of its fields; absent fields stay absent. */
export function fromWire<K extends string>(source: unknown, fields: readonly K[]): { [F in K]?: unknown } {
  const wire = source !== null && typeof source === 'object' ? (source as Record<string, unknown>) : {};
  return Object.fromEntries(fields.filter((f) => wire[wireName(f)] !== undefined).map((f) => [f, wire[wireName(f)]])) as { [F in K]?: unknown };
}

interface Rendered {
  source: { pointer: string } | { parameter: string };
  /** The field as the client knows it, for the detail text. */
  name: string;
}

function renderList(parts: string[]): Rendered {
  // A list of identifiers (`ids.2`) is the body's list of resource identifiers.
  if (parts[0] === 'ids') return parts[1] === undefined ? { source: { pointer: '/data' }, name: 'data' } : { source: { pointer: `/data/${parts[1]}/id` }, name: `data/${parts[1]}/id` };
  // The domain may name its list of items (`items.2.amount`); the body's list is `data` itself.
  const [index, ...rest] = /^\d+$/.test(parts[0] ?? '') ? parts : parts.slice(1);
  if (index === undefined) return { source: { pointer: '/data' }, name: 'data' };
  if (rest.length === 1 && rest[0] === 'id') return { source: { pointer: `/data/${index}/id` }, name: `data/${index}/id` };
  return { source: { pointer: `/data/${index}/attributes${rest.length ? `/${rest.join('/')}` : ''}` }, name: rest.join('/') || `item ${index}` };
}

function render(field: string, placement: FieldPlacement): Rendered {
  const parts = field.split('.').filter(Boolean).map(wireName);
  if (placement === 'query') {
    const name = `${parts[0] ?? ''}${parts.slice(1).map((p) => `[${p}]`).join('')}`;
    return { source: { parameter: name }, name };
  }
  if (placement === 'list') return renderList(parts);
  if (placement === 'form' && parts[0] === 'file') return { source: { pointer: '/file' }, name: 'file' };
  if (parts.length === 1 && parts[0] === 'id') return { source: { pointer: '/data/id' }, name: 'data.id' };
  return { source: { pointer: `/data/attributes${parts.length ? `/${parts.join('/')}` : ''}` }, name: parts.join('/') || 'attributes' };
}

function wireField(field: string, names: FieldNames): string {
  const [head, ...rest] = field.split('.');
  const renamed = Object.hasOwn(names, head) ? names[head] : undefined;
  return renamed === undefined ? field : [renamed, ...rest].filter(Boolean).join('.');
}

/** Each whole-word mention of a domain field in `detail`, under the name the client knows it by. */
function renderMentions(detail: string, mentions: readonly string[], nameOf: (field: string) => string): string {
  return mentions.reduce((text, field) => text.replace(new RegExp(`(?<![\\w.])${field.replace(/\./g, '\\.')}(?![\\w])`, 'g'), () => nameOf(field)), detail);
}

/** An error item of a domain field, as REST shows it: its source, and its detail in the wire's names. */
export function restItem(item: ErrorItem, rendering: FieldRendering): ErrorItem {
  const { source } = item;
  if (!source || !('field' in source)) return item;
  const { in: placement, names } = typeof rendering === 'string' ? { in: rendering, names: {} } : rendering;
  const nameOf = (field: string) => render(wireField(field, names), placement).name;
  const rendered = render(wireField(source.field, names), placement);
  const own = source.field && item.detail.startsWith(source.field) ? rendered.name + item.detail.slice(source.field.length) : item.detail;
  const detail = source.mentions ? renderMentions(own, source.mentions, nameOf) : own;
  return { ...item, detail, source: rendered.source };
}
