import { allFromWire } from '../../rest/fields';
import { inputDocument, parseDocument, requirePathId } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentAccount } from './accounts.presenter';
import { createAccountInput, updateAccountInput } from './accounts.input';

export function accountsRoutes(router: AppRouter): void {
  const { accounts } = router.services;
  router.post('/accounts', { summary: 'Create an account (self-registration or by staff)', authenticated: 'key', status: 201, body: { type: 'accounts', input: createAccountInput(router.services.reference), omit: ['id'], id: 'required' }, response: 'accounts' }, async ({ ctx, body }) => {
    const { data } = parseDocument(inputDocument('accounts'), body);
    return { data: presentAccount({ account: await accounts.create(ctx, { ...allFromWire(data.attributes), id: data.id }), full: true }) };
  });
  router.get('/accounts/:id', { summary: 'Read an account (the public view, or the full one to whom may see it)', response: 'accounts' }, async ({ ctx, params }) => ({ data: presentAccount(await accounts.get(ctx, params.id)) }));
  router.patch('/accounts/:id', { summary: 'Update an account', authenticated: true, body: { type: 'accounts', input: updateAccountInput(router.services.reference), omit: ['id'], id: 'optional' }, response: 'accounts' }, async ({ ctx, params, body }) => {
    const { data } = parseDocument(inputDocument('accounts'), body);
    requirePathId(data.id, params.id, 'data.id must be the id of the account in the path');
    return { data: presentAccount({ account: await accounts.update(ctx, { ...allFromWire(data.attributes), id: params.id }), full: true }) };
  });
}
