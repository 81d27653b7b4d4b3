import { DomainError, invalid, type ErrorItem } from '../../core/errors';
import { inputDocument, parseDocument } from '../../rest/document';
import { fromWire } from '../../rest/fields';
import { parseQuery } from '../../rest/query';
import type { AppRouter } from '../../rest/router';
import { LOT_FILTER_FIELDS, LOT_COUNT_QUERY } from '../lots';
import { savedSearchInput } from './searches.input';
import { presentSavedSearch } from './searches.presenter';

/** The codes of GET /lots' query faults as faults of the body's `filter`. */
const BODY_CODES: Partial<Record<ErrorItem['code'], ErrorItem['code']>> = { invalid_parameter: 'invalid_field', unknown_parameter: 'unknown_filter', duplicate_parameter: 'invalid_field' };

/** A query fault (`filter[price]`) as the fault of the body's member (`/data/attributes/filter/price`). */
function inBody(item: ErrorItem): ErrorItem {
  const parameter = item.source && 'parameter' in item.source ? item.source.parameter : '';
  const name = /^filter\[(.*)\]$/.exec(parameter)?.[1];
  return { ...item, code: BODY_CODES[item.code] ?? item.code, source: { field: name === undefined ? 'filter' : `filter.${name}` } };
}

/**
 * A saved search's filter written as GET /lots takes its `filter[...]` parameters (`"price": ",5000"`,
 * `"lot_type": "eng,no_auction"`), read by that query's own parser, under the service's names.
 * A number or a boolean stands for its text; null for an absent filter.
 */
function filterOf(filter: unknown): Record<string, unknown> {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) throw invalid('invalid_field', 'filter must be an object of filters written as GET /lots takes them', { field: 'filter' });
  const raw: Record<string, string> = {};
  const faults: ErrorItem[] = [];
  for (const [name, value] of Object.entries(filter)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') raw[`filter[${name}]`] = String(value);
    else if (value !== null) faults.push({ code: 'invalid_field', detail: `filter[${name}] must be written as GET /lots takes it, as text: "2015,2020" for a range, "eng,no_auction" for a list`, source: { field: `filter.${name}` } });
  }
  let filters: Record<string, unknown> = {};
  try {
    filters = parseQuery(LOT_COUNT_QUERY, raw).filters;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    faults.push(...err.items.map(inBody));
  }
  if (faults.length) throw new DomainError('invalid', faults as [ErrorItem, ...ErrorItem[]]);
  return fromWire(filters, LOT_FILTER_FIELDS);
}

/** Saved searches with alerts (docs/saved-searches.md). */
export function searchesRoutes(router: AppRouter): void {
  const { searches } = router.services;
  router.post(
    '/accounts/:id/saved_searches',
    { summary: 'Save a lot search of the account, alerted when a new lot matches (the account itself)', authenticated: true, status: 201, body: { type: 'saved_searches', input: savedSearchInput, omit: ['accountId'] }, response: 'saved_searches' },
    async ({ ctx, params, body }) => {
    const attributes = parseDocument(inputDocument('saved_searches'), body).data.attributes ?? {};
    return { data: presentSavedSearch(await searches.create(ctx, { accountId: params.id, filter: filterOf(attributes.filter ?? {}) })) };
  });
  router.get('/accounts/:id/saved_searches', { summary: "The account's saved searches (the account itself)", authenticated: true, response: ['saved_searches'] }, async ({ ctx, params }) => ({
    data: (await searches.list(ctx, { accountId: params.id })).map(presentSavedSearch),
  }));
  router.delete('/accounts/:id/saved_searches/:searchId', { summary: 'Delete a saved search (the account itself)', authenticated: true, status: 204 }, async ({ ctx, params }) => {
    await searches.delete(ctx, { accountId: params.id, id: params.searchId });
  });
}
