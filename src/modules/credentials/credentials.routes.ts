import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentCredentials, presentToken } from './credentials.presenter';
import { looseDocument } from './credentials.schema';
import { changePasswordInput, createCredentialsInput, issueTokenInput } from './credentials.input';

export function credentialsRoutes(router: AppRouter): void {
  const { credentials } = router.services;
  router.put('/credentials', { summary: 'Set the password of an account', authenticated: true, status: 201, body: { type: 'credentials', input: createCredentialsInput, omit: ['accountId'], id: 'required' }, response: 'credentials', fields: { in: 'body', names: { accountId: 'id' } } }, async ({ ctx, body }) => {
    const { data } = parseDocument(inputDocument('credentials'), body);
    return presentCredentials(await credentials.create(ctx, { accountId: data.id, password: data.attributes?.password }));
  });
  router.patch('/credentials', { summary: 'Change the password (with a JWT)', body: { type: 'credentials', input: changePasswordInput }, response: 'credentials' }, async ({ ctx, body }) => {
    const attributes = parseDocument(looseDocument(), body).data.attributes ?? {};
    return presentCredentials(await credentials.changePassword(ctx, { oldPassword: attributes.old_password, newPassword: attributes.new_password }));
  });
  router.post('/jwt', { summary: 'Sign in: a JWT for an account id or an email, and a password', status: 201, body: { type: 'jwt', input: issueTokenInput }, response: 'jwt' }, async ({ ctx, body }) => {
    const attributes = parseDocument(looseDocument(), body).data.attributes ?? {};
    const { account_id, email, platform_id, password } = attributes;
    return presentToken(await credentials.issueToken(ctx, { accountId: account_id, email, platformId: platform_id, password }));
  });
  router.patch('/jwt', { summary: 'Refresh a valid JWT', status: 201, response: 'jwt' }, async ({ ctx }) => presentToken(await credentials.refreshToken(ctx)));
}
