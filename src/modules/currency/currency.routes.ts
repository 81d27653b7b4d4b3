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

const attributesOf = (item: unknown) => (item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as { attributes?: unknown }).attributes : item);

export function currencyRoutes(router: AppRouter): void {
  const { currency } = router.services;
  router.get('/convert', { query: CONVERT_QUERY, fields: 'query' }, async ({ rc, query }) => ({ data: presentConversion(await currency.convert(rc, query.plain)) }));
  router.post('/convert', { fields: 'list' }, async ({ rc, body }) => {
    const { data } = parseDocument(bulkDocument, body);
    return { data: (await currency.convertMany(rc, { items: data.map(attributesOf) })).map(presentConversion) };
  });
}
