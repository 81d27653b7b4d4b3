import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentBlacklistItem } from './blacklist.presenter';
import { blacklistInput } from './blacklist.input';

export function blacklistRoutes(router: AppRouter): void {
  const { blacklist } = router.services;
  router.get('/blacklist', { summary: 'List the blacklisted accounts of the caller’s platform', authenticated: true, response: ['accounts'] }, async ({ ctx }) => ({ data: (await blacklist.list(ctx)).map(presentBlacklistItem) }));
  router.put('/blacklist', { summary: 'Pause or stop an account', authenticated: true, body: { type: 'accounts', input: blacklistInput, omit: ['accountId'], id: 'required' }, response: 'accounts', fields: { in: 'body', names: { accountId: 'id' } } }, async ({ ctx, body }) => {
    const { data } = parseDocument(inputDocument('accounts'), body);
    return { data: presentBlacklistItem(await blacklist.put(ctx, { accountId: data.id, state: data.attributes?.state })) };
  });
  router.delete('/blacklist/:id', { summary: 'Take an account off the blacklist', authenticated: true, status: 204 }, async ({ ctx, params }) => {
    await blacklist.remove(ctx, params.id);
  });
}
