import { parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { looseDocument } from '../credentials/credentials.schema';

/** Public: the recovery token authenticates (PROTOCOL.md §3.6). */
export function recoveryRoutes(router: AppRouter): void {
  const { recovery } = router.services;
  const document = looseDocument('recovery_requests');
  const fields = { in: 'body', names: { accountId: 'id' } } as const;
  router.put('/recovery_requests', { status: 204, fields }, async ({ rc, body }) => {
    const { id, attributes = {} } = parseDocument(document, body).data;
    await recovery.request(rc, { accountId: id, email: attributes.email, platformId: attributes.platform_id });
  });
  router.patch('/recovery_requests', { status: 204, fields }, async ({ rc, body }) => {
    const { id, attributes = {} } = parseDocument(document, body).data;
    await recovery.approve(rc, { accountId: id, token: attributes.token, newPassword: attributes.new_password });
  });
}
