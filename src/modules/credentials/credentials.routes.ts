import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentCredentials, presentToken } from './credentials.presenter';
import { looseDocument } from './credentials.schema';

export function credentialsRoutes(router: AppRouter): void {
  const { credentials } = router.services;
  router.put('/credentials', { authenticated: true, status: 201 }, async ({ rc, body }) => {
    const { data } = parseDocument(inputDocument('credentials'), body);
    return presentCredentials(await credentials.create(rc, data));
  });
  router.patch('/credentials', {}, async ({ rc, body }) => {
    const { data } = parseDocument(looseDocument(), body);
    return presentCredentials(await credentials.changePassword(rc, data.attributes));
  });
  router.post('/jwt', { status: 201 }, async ({ rc, body }) => {
    const { data } = parseDocument(looseDocument(), body);
    return presentToken(await credentials.issueToken(rc, data.attributes));
  });
  router.patch('/jwt', { status: 201 }, async ({ rc }) => presentToken(await credentials.refreshToken(rc)));
}
