import type { RequestContext } from '../../core/context';
import { type TopLevel, inputDocument, parseDocument, requirePathId } from '../../rest/document';
import { allFromWire, fromWire } from '../../rest/fields';
import { cursorLinks } from '../../rest/pagination';
import type { ParsedQuery } from '../../rest/query';
import type { AppRouter } from '../../rest/router';
import { LOT_FILTER_FIELDS } from './lots.filter';
import { embeddedFor } from './lots.embedded';
import { type LotIncluder, relationsOf } from './lots.includes.presenter';
import { CREATE_LOT_FIELDS, createLotInput, updateLotInput } from './lots.input';
import { presentLots } from './lots.presenter';
import type { LotGroup } from './lots.aggregate';
import { presentLotsAggregate } from './lots.aggregate.presenter';
import { LOT_AGGREGATE_QUERY, LOT_COUNT_QUERY, LOT_GET_QUERY, LOT_INDEX_QUERY } from './lots.schema';
import type { LotsService, LotsView } from './lots.service';

/** The lots of a view as resources, with what `include` asks for beside them. */
export async function renderLots({ lots, lotIncluder }: { lots: LotsService; lotIncluder: LotIncluder }, ctx: RequestContext, view: LotsView, include: ReadonlySet<string>) {
  const relations = relationsOf(include);
  const { included, relationships } = await lotIncluder.include(ctx, view.lots, relations, view.embedded);
  return { data: presentLots(lots.views(ctx, view), relationships), ...(include.size ? { included } : {}) };
}

const filterOf = (query: ParsedQuery) => fromWire(query.filters, LOT_FILTER_FIELDS);

export function lotsRoutes(router: AppRouter): void {
  const { lots } = router.services;

  router.post('/lots', { summary: 'Create a lot, or a request for one when the platform reviews them', authenticated: true, status: 204, body: { type: 'lots', input: createLotInput(router.services.reference) } }, async ({ ctx, body }) => {
    const { attributes } = parseDocument(inputDocument('lots'), body).data;
    await lots.create(ctx, fromWire(attributes, CREATE_LOT_FIELDS));
  });

  router.get('/lots', { summary: 'Search lots', query: LOT_INDEX_QUERY, response: ['lots'], fields: 'query' }, async (req): Promise<TopLevel> => {
    const embed = embeddedFor(relationsOf(req.query.include));
    const view = await lots.index(req.ctx, { filter: filterOf(req.query), sort: req.query.sort, page: req.query.page }, embed);
    const { data, ...included } = await renderLots(router.services, req.ctx, view, req.query.include);
    return { data, ...included, links: cursorLinks(req.path, req.search, view, req.koa.originalUrl), meta: { on_page: view.lots.length } };
  });

  router.get('/lots/count', { summary: 'Count the lots a search finds', query: LOT_COUNT_QUERY, response: 'lots_count', fields: 'query' }, async ({ ctx, query }) => {
    const count = await lots.count(ctx, { filter: filterOf(query) });
    return { data: { type: 'lots_count', id: String(count) } };
  });

  // The twin of GraphQL's lotsAggregate: the same service operation, so the same lots and sums.
  router.get(
    '/lots/aggregate',
    { summary: 'Count and sum the prices of the lots a search finds, optionally grouped by state, maker or platform', query: LOT_AGGREGATE_QUERY, response: 'lots_aggregates', fields: 'query' },
    async ({ ctx, query }) => {
      const { currency, group_by: groupBy } = query.plain as { currency?: string; group_by?: LotGroup };
      return { data: presentLotsAggregate(await lots.aggregate(ctx, { filter: filterOf(query), currency, groupBy })) };
    },
  );

  router.get('/lots/:id', { summary: 'Read a lot', query: LOT_GET_QUERY, response: 'lots', fields: 'query' }, async ({ ctx, params, query }) => {
    const view = await lots.get(ctx, { id: params.id, currency: query.plain.currency });
    const { data, ...included } = await renderLots(router.services, ctx, view, query.include);
    return { data: data[0], ...included };
  });

  router.patch('/lots/:id', { summary: "Change a lot's reserve price (its organizer or platform staff; before the first bid)", authenticated: true, body: { type: 'lots', input: updateLotInput, omit: ['id'], id: 'optional' }, response: 'lots' }, async ({ ctx, params, body }) => {
    const { data } = parseDocument(inputDocument('lots'), body);
    requirePathId(data.id, params.id, 'data.id must be the id of the lot in the path');
    const view = await lots.update(ctx, { ...allFromWire(data.attributes), id: params.id });
    return { data: (await renderLots(router.services, ctx, view, new Set())).data[0] };
  });
}
