import { type TopLevel, inputDocument, parseDocument, requirePathId } from '../../rest/document';
import type { Untrusted } from '../../core/validate';
import { fromWire } from '../../rest/fields';
import { numberLinks } from '../../rest/pagination';
import type { ParsedQuery } from '../../rest/query';
import type { AppRouter, RouteRequest } from '../../rest/router';
import { type RequestListInput, reviewInput } from './requests.input';
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

  router.get('/requests', { summary: 'List the requests the caller may review', authenticated: true, response: ['create_lot_requests'], query: REQUEST_INDEX_QUERY, fields: 'query' }, async (req) => renderPage(req, await requests.list(req.ctx, listInputOf(req.query))));

  router.get('/accounts/:id/create_lot_requests', { summary: 'List the lot requests of an account', authenticated: true, response: ['create_lot_requests'], query: ACCOUNT_REQUESTS_QUERY, fields: 'query' }, async (req) =>
    renderPage(req, await requests.listOfAccount(req.ctx, { ...listInputOf(req.query), accountId: req.params.id })),
  );

  router.get('/requests/:id', { summary: 'Read a request', authenticated: true, response: 'create_lot_requests', query: REQUEST_GET_QUERY, fields: 'query' }, async ({ ctx, params, query }) => {
    const { request, pricing } = await requests.get(ctx, { id: params.id, currency: query.plain.currency });
    return { data: presentRequest(request, pricing) };
  });

  router.patch('/requests/:id', { summary: 'Approve or reject a request', authenticated: true, body: { type: 'reviewable_requests', input: reviewInput, omit: ['id'], id: 'optional' }, response: 'create_lot_requests' }, async ({ ctx, params, body }) => {
    const { id, attributes } = parseDocument(inputDocument('reviewable_requests'), body).data;
    requirePathId(id, params.id, 'data.id must be the id of the request in the path', 'invalid');
    return { data: presentRequest(await requests.review(ctx, { id: params.id, ...fromWire(attributes, ['hash', 'state', 'rejectReason']) })) };
  });

  router.delete('/requests/:id', { summary: 'Cancel one’s own request', authenticated: true, status: 204 }, async ({ ctx, params }) => {
    await requests.cancel(ctx, { id: params.id });
  });
}
