import { parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { looseDocument } from '../credentials/credentials.schema';

/** Public: the recovery token authenticates (PROTOCOL.md §3.6). */
export function recoveryRoutes(router: AppRouter): void {
  const { recovery } = router.services;
  const document = looseDocument('recovery_requests');
  router.put('/recovery_requests', { status: 204 }, async ({ rc, body }) => {
    await recovery.request(rc, parseDocument(document, body).data);
  });
  router.patch('/recovery_requests', { status: 204 }, async ({ rc, body }) => {
    await recovery.approve(rc, parseDocument(document, body).data);
  });
}
