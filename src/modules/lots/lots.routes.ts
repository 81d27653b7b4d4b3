import type { TopLevel } from '../../rest/document';
import { inputDocument, parseDocument } from '../../rest/document';
import { cursorLinks } from '../../rest/pagination';
import type { AppRouter, RouteRequest } from '../../rest/router';
import type { LotFilter, LotSortKey } from './lots.filter';
import { presentLot } from './lots.presenter';
import { LOT_COUNT_QUERY, LOT_GET_QUERY, LOT_INDEX_QUERY } from './lots.schema';
import type { LotsView } from './lots.service';

function render(view: LotsView, currency: string | undefined) {
  return view.lots.map((lot) => {
    const resource = presentLot(lot, { currency, convert: view.convert, callbackIds: [] });
    return { ...resource, relationships: view.relationships.get(lot.id) ?? resource.relationships };
  });
}

const selfLink = (req: RouteRequest) => req.koa.originalUrl;

export function lotsRoutes(router: AppRouter): void {
  const { lots } = router.services;

  router.post('/lots', { authenticated: true, status: 204 }, async ({ rc, body }) => {
    const { data } = parseDocument(inputDocument('lots'), body);
    await lots.create(rc, data);
  });

  router.get('/lots', { query: LOT_INDEX_QUERY }, async (req): Promise<TopLevel> => {
    const filter = req.query.filters as LotFilter;
    const sort = req.query.sort as { key: LotSortKey; desc: boolean };
    const page = req.query.page as { cursor: string | null; limit: number };
    const view = await lots.index(req.rc, { filter, sort, cursor: page.cursor, limit: page.limit }, req.query.include);
    return {
      data: render(view, filter.currency),
      ...(req.query.include.size ? { included: view.included } : {}),
      links: cursorLinks(req.path, req.search, view, selfLink(req)),
      meta: { on_page: view.lots.length },
    };
  });

  router.get('/lots/count', { query: LOT_COUNT_QUERY }, async ({ rc, query }) => {
    const count = await lots.count(rc, query.filters as LotFilter);
    return { data: { type: 'lots_count', id: String(count) } };
  });

  router.get('/lots/:id', { query: LOT_GET_QUERY }, async ({ rc, params, query }) => {
    const currency = query.plain.currency as string | undefined;
    const view = await lots.get(rc, params.id, query.include, currency);
    const [data] = render(view, currency);
    return { data, ...(query.include.size ? { included: view.included } : {}) };
  });
}
