import type { KeysetPage } from '../core/page';

/** A link to the same request with other page parameters; every other parameter unchanged. */
export function pageLink(path: string, query: URLSearchParams, page: Record<string, string | number>): string {
  const params = new URLSearchParams(query);
  for (const [k, v] of Object.entries(page)) params.set(`page[${k}]`, String(v));
  const qs = params.toString().replace(/%5B/g, '[').replace(/%5D/g, ']');
  return qs ? `${path}?${qs}` : path;
}

export function cursorLinks(path: string, query: URLSearchParams, page: Pick<KeysetPage<unknown>, 'next' | 'prev'>, self: string) {
  return {
    self,
    ...(page.next ? { next: pageLink(path, query, { cursor: page.next }) } : {}),
    ...(page.prev ? { prev: pageLink(path, query, { cursor: page.prev }) } : {}),
  };
}

export function numberLinks(path: string, query: URLSearchParams, number: number, size: number, total: number, self: string) {
  const last = Math.max(0, Math.ceil(total / size) - 1);
  return {
    self,
    first: pageLink(path, query, { number: 0, size }),
    last: pageLink(path, query, { number: last, size }),
    ...(number < last ? { next: pageLink(path, query, { number: number + 1, size }) } : {}),
    ...(number > 0 ? { prev: pageLink(path, query, { number: Math.min(number - 1, last), size }) } : {}),
  };
}
