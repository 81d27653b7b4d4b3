import type { ErrorItem } from '../core/errors';

/**
 * Where a route's domain input came from on the wire, so that a fault in a domain field is shown
 * where the client wrote it: the body document's attributes (`id` is `/data/id`), the query string
 * (`filter.lotState` is `filter[lot_state]`), or a bulk body's list (`2.amount` and `items.2.amount` are `/data/2/attributes/amount`).
 * `{ dataId }` is a body whose `data.id` carries that field (`participantId` is `/data/id`).
 */
export type FieldPlacement = 'body' | 'query' | 'list' | { dataId: string };

/** Wire names that are not the snake_case of their domain field (the lot filters of the external sources). */
const IRREGULAR: Record<string, string> = { partnerAStatus: 'partnerA_status', trimPartnerA: 'trim_partnerA', trimPartnerB: 'trim_partnerB' };

/** The name a domain field has on the wire: its snake_case, save the irregular ones. */
export const wireName = (field: string) => IRREGULAR[field] ?? field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

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

function render(field: string, placement: FieldPlacement): Rendered {
  if (typeof placement === 'object') return field === placement.dataId ? { source: { pointer: '/data/id' }, name: 'data.id' } : render(field, 'body');
  const parts = field.split('.').filter(Boolean).map(wireName);
  if (placement === 'query') {
    const name = `${parts[0] ?? ''}${parts.slice(1).map((p) => `[${p}]`).join('')}`;
    return { source: { parameter: name }, name };
  }
  if (placement === 'list') {
    // The domain may name its list (`items.2.amount`); the body's list is `data` itself.
    const [index, ...rest] = /^\d+$/.test(parts[0] ?? '') ? parts : parts.slice(1);
    if (index === undefined) return { source: { pointer: '/data' }, name: 'data' };
    return { source: { pointer: `/data/${index}/attributes${rest.length ? `/${rest.join('/')}` : ''}` }, name: rest.join('/') || 'attributes' };
  }
  if (parts.length === 1 && parts[0] === 'id') return { source: { pointer: '/data/id' }, name: 'data.id' };
  return { source: { pointer: `/data/attributes${parts.length ? `/${parts.join('/')}` : ''}` }, name: parts.join('/') || 'attributes' };
}

/** An error item of a domain field, as REST shows it: its source, and its detail in the wire's names. */
export function restItem(item: ErrorItem, placement: FieldPlacement): ErrorItem {
  const { source } = item;
  if (!source || !('field' in source)) return item;
  const rendered = render(source.field, placement);
  const detail = source.field && item.detail.startsWith(source.field) ? rendered.name + item.detail.slice(source.field.length) : item.detail;
  return { ...item, detail, source: rendered.source };
}
