import type { ErrorItem } from '../core/errors';

/**
 * Where a route's domain input came from on the wire, so that a fault in a domain field is shown
 * where the client wrote it: the body document's attributes (`id` is `/data/id`), the query string
 * (`filter.lotState` is `filter[lot_state]`), or a bulk body's list (`2.amount` is `/data/2/attributes/amount`).
 */
export type FieldPlacement = 'body' | 'query' | 'list';

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

interface Rendered {
  source: { pointer: string } | { parameter: string };
  /** The field as the client knows it, for the detail text. */
  name: string;
}

function render(field: string, placement: FieldPlacement): Rendered {
  const parts = field.split('.').filter(Boolean).map(snake);
  if (placement === 'query') {
    const name = `${parts[0] ?? ''}${parts.slice(1).map((p) => `[${p}]`).join('')}`;
    return { source: { parameter: name }, name };
  }
  if (placement === 'list') {
    const [index, ...rest] = parts;
    return { source: { pointer: `/data/${index}${rest.length ? `/attributes/${rest.join('/')}` : ''}` }, name: rest.join('/') || `item ${index}` };
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
