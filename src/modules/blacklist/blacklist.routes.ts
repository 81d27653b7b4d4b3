import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentBlacklistItem } from './blacklist.presenter';

export function blacklistRoutes(router: AppRouter): void {
  const { blacklist } = router.services;
  router.get('/blacklist', { authenticated: true }, async ({ rc }) => ({ data: (await blacklist.list(rc)).map(presentBlacklistItem) }));
  router.put('/blacklist', { authenticated: true, fields: { in: 'body', names: { accountId: 'id' } } }, async ({ rc, body }) => {
    const { data } = parseDocument(inputDocument('accounts'), body);
    return { data: presentBlacklistItem(await blacklist.put(rc, { accountId: data.id, state: data.attributes?.state })) };
  });
  router.delete('/blacklist/:id', { authenticated: true, status: 204 }, async ({ rc, params }) => {
    await blacklist.remove(rc, params.id);
  });
}
