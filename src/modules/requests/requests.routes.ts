import type { TopLevel } from '../../rest/document';
import { inputDocument, parseDocument } from '../../rest/document';
import { numberLinks } from '../../rest/pagination';
import type { ParsedQuery } from '../../rest/query';
import type { AppRouter, RouteRequest } from '../../rest/router';
import type { RequestListInput } from './requests.input';
import { presentRequest } from './requests.presenter';
import { ACCOUNT_REQUESTS_QUERY, REQUEST_GET_QUERY, REQUEST_INDEX_QUERY } from './requests.schema';
import type { RequestPage } from './requests.service';

function listInputOf(query: ParsedQuery): RequestListInput {
  const f = query.filters;
  const page = query.page as { number: number; size: number };
  return {
    type: f.type as 'lots' | undefined,
    requestor: f.requestor as string | undefined,
    reviewer: f.reviewer as string | undefined,
    state: f.state as string[] | undefined,
    archived: f.archived as boolean | undefined,
    currency: query.plain.currency as RequestListInput['currency'],
    sort: query.sort as RequestListInput['sort'],
    page: page.number,
    size: page.size,
  };
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

  router.get('/requests', { authenticated: true, query: REQUEST_INDEX_QUERY }, async (req) => renderPage(req, await requests.list(req.rc, listInputOf(req.query))));

  router.get('/accounts/:id/create_lot_requests', { authenticated: true, query: ACCOUNT_REQUESTS_QUERY }, async (req) =>
    renderPage(req, await requests.listOfAccount(req.rc, req.params.id, listInputOf(req.query))),
  );

  router.get('/requests/:id', { authenticated: true, query: REQUEST_GET_QUERY }, async ({ rc, params, query }) => {
    const { request, pricing } = await requests.get(rc, params.id, query.plain.currency as string | undefined);
    return { data: presentRequest(request, pricing) };
  });

  router.patch('/requests/:id', { authenticated: true }, async ({ rc, params, body }) => {
    const { data } = parseDocument(inputDocument('reviewable_requests'), body);
    return { data: presentRequest(await requests.review(rc, params.id, data)) };
  });

  router.delete('/requests/:id', { authenticated: true, status: 204 }, async ({ rc, params }) => {
    await requests.cancel(rc, params.id);
  });
}
