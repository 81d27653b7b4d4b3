import { inputDocument, parseDocument } from '../../rest/document';
import { allFromWire } from '../../rest/fields';
import type { AppRouter } from '../../rest/router';
import { savedSearchInput } from './searches.input';
import { presentSavedSearch } from './searches.presenter';

/** The filters of GET /lots under the service's names (`model_prefix` is `modelPrefix`); anything else is the service's to refuse. */
const filterOf = (filter: unknown) => (filter !== null && typeof filter === 'object' && !Array.isArray(filter) ? allFromWire(filter as Record<string, unknown>) : filter);

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
