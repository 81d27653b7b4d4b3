import type { TopLevel } from '../../rest/document';
import type { Untrusted } from '../../core/validate';
import { inputDocument, parseDocument, requirePathId } from '../../rest/document';
import { fromWire } from '../../rest/fields';
import { numberLinks } from '../../rest/pagination';
import type { ParsedQuery } from '../../rest/query';
import type { AppRouter, RouteRequest } from '../../rest/router';
import type { RequestListInput } from './requests.input';
import { presentRequest } from './requests.presenter';
import { ACCOUNT_REQUESTS_QUERY, REQUEST_GET_QUERY, REQUEST_INDEX_QUERY } from './requests.schema';
import type { RequestPage } from './requests.service';

function listInputOf(query: ParsedQuery): Untrusted<RequestListInput> {
  const page = query.page as { number: number; size: number };
  return { ...query.filters, currency: query.plain.currency, sort: query.sort, page: page.number, size: page.size };
}

function renderPage(req: RouteRequest, page: RequestPage): TopLevel {
  return {
    data: page.items.map((r) => presentRequest(r, page.pricing)),
    links: numberLinks(req.path, req.search, page.page, page.size, page.total, req.koa.originalUrl),
    meta: { on_page: page.items.length, total_items: page.total },
  };
}

export function requestsRoutes(router: AppRouter): void {
  const { requests } = router.services;

  router.get('/requests', { authenticated: true, query: REQUEST_INDEX_QUERY, fields: 'query' }, async (req) => renderPage(req, await requests.list(req.rc, listInputOf(req.query))));

  router.get('/accounts/:id/create_lot_requests', { authenticated: true, query: ACCOUNT_REQUESTS_QUERY, fields: 'query' }, async (req) =>
    renderPage(req, await requests.listOfAccount(req.rc, { ...listInputOf(req.query), accountId: req.params.id })),
  );

  router.get('/requests/:id', { authenticated: true, query: REQUEST_GET_QUERY, fields: 'query' }, async ({ rc, params, query }) => {
    const { request, pricing } = await requests.get(rc, { id: params.id, currency: query.plain.currency });
    return { data: presentRequest(request, pricing) };
  });

  router.patch('/requests/:id', { authenticated: true }, async ({ rc, params, body }) => {
    const { id, attributes } = parseDocument(inputDocument('reviewable_requests'), body).data;
    requirePathId(id, params.id, 'data.id must be the id of the request in the path', 'invalid');
    return { data: presentRequest(await requests.review(rc, { id: params.id, ...fromWire(attributes, ['hash', 'state', 'rejectReason']) })) };
  });

  router.delete('/requests/:id', { authenticated: true, status: 204 }, async ({ rc, params }) => {
    await requests.cancel(rc, { id: params.id });
  });
}
