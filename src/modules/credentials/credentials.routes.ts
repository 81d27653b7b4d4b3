import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentCredentials, presentToken } from './credentials.presenter';
import { looseDocument } from './credentials.schema';

export function credentialsRoutes(router: AppRouter): void {
  const { credentials } = router.services;
  router.put('/credentials', { authenticated: true, status: 201, fields: { in: 'body', names: { accountId: 'id' } } }, async ({ rc, body }) => {
    const { data } = parseDocument(inputDocument('credentials'), body);
    return presentCredentials(await credentials.create(rc, { accountId: data.id, password: data.attributes?.password }));
  });
  router.patch('/credentials', {}, async ({ rc, body }) => {
    const attributes = parseDocument(looseDocument(), body).data.attributes ?? {};
    return presentCredentials(await credentials.changePassword(rc, { oldPassword: attributes.old_password, newPassword: attributes.new_password }));
  });
  router.post('/jwt', { status: 201 }, async ({ rc, body }) => {
    const attributes = parseDocument(looseDocument(), body).data.attributes ?? {};
    const { account_id, email, platform_id, password } = attributes;
    return presentToken(await credentials.issueToken(rc, { accountId: account_id, email, platformId: platform_id, password }));
  });
  router.patch('/jwt', { status: 201 }, async ({ rc }) => presentToken(await credentials.refreshToken(rc)));
}
