import { z } from 'zod';
import { parseDocument } from '../../rest/document';
import type { QuerySpec } from '../../rest/query';
import type { AppRouter } from '../../rest/router';
import { presentConversion } from './currency.presenter';

/** from, to and amount are checked together by the service, so that each fault is reported. */
const CONVERT_QUERY: QuerySpec = {
  plain: { from: { kind: 'string', max: 40 }, to: { kind: 'string', max: 40 }, amount: { kind: 'string', max: 40 } },
};

/** POST /convert: `data` is an array of `{type?, attributes: {from, to, amount}}`; data.type is not checked. */
const bulkDocument = z.object({ data: z.array(z.unknown(), { error: 'data must be an array of conversions' }) });

/** What each conversion's attributes hold, for the REST description; the service checks them as GET /convert's. */
const conversionInput = z.object({ from: z.string().max(40), to: z.string().max(40), amount: z.string().max(40) });

const attributesOf = (item: unknown) => (item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as { attributes?: unknown }).attributes : item);

export function currencyRoutes(router: AppRouter): void {
  const { currency } = router.services;
  router.get('/convert', { summary: 'Convert an amount between currencies', query: CONVERT_QUERY, response: 'converted_currency', fields: 'query' }, async ({ ctx, query }) => ({ data: presentConversion(await currency.convert(ctx, query.plain)) }));
  router.post('/convert', { summary: 'Convert many amounts at once', fields: 'list', body: { type: 'converted_currency', input: conversionInput, list: true }, response: ['converted_currency'] }, async ({ ctx, body }) => {
    const { data } = parseDocument(bulkDocument, body);
    return { data: (await currency.convertMany(ctx, { items: data.map(attributesOf) })).map(presentConversion) };
  });
}
