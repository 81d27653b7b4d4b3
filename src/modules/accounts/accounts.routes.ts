import { allFromWire } from '../../rest/fields';
import { inputDocument, parseDocument, requirePathId } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentAccount } from './accounts.presenter';

export function accountsRoutes(router: AppRouter): void {
  const { accounts } = router.services;
  router.post('/accounts', { authenticated: 'key', status: 201 }, async ({ rc, body }) => {
    const { data } = parseDocument(inputDocument('accounts'), body);
    return { data: presentAccount({ account: await accounts.create(rc, { ...allFromWire(data.attributes), id: data.id }), full: true }) };
  });
  router.get('/accounts/:id', {}, async ({ rc, params }) => ({ data: presentAccount(await accounts.get(rc, params.id)) }));
  router.patch('/accounts/:id', { authenticated: true }, async ({ rc, params, body }) => {
    const { data } = parseDocument(inputDocument('accounts'), body);
    requirePathId(data.id, params.id, 'data.id must be the id of the account in the path');
    return { data: presentAccount({ account: await accounts.update(rc, { ...allFromWire(data.attributes), id: params.id }), full: true }) };
  });
}
