import { parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { looseDocument } from '../credentials';
import { approveRecoveryInput, recoveryByEmailInput } from './recovery.input';

/** Public: the recovery token authenticates. */
export function recoveryRoutes(router: AppRouter): void {
  const { recovery } = router.services;
  const document = looseDocument('recovery_requests');
  const fields = { in: 'body', names: { accountId: 'id' } } as const;
  router.put('/recovery_requests', { summary: 'Ask for a password recovery email', status: 204, fields, body: { type: 'recovery_requests', input: recoveryByEmailInput, id: 'optional' } }, async ({ ctx, body }) => {
    const { id, attributes = {} } = parseDocument(document, body).data;
    await recovery.request(ctx, { accountId: id, email: attributes.email, platformId: attributes.platform_id });
  });
  router.patch('/recovery_requests', { summary: 'Set a new password with a recovery token', status: 204, fields, body: { type: 'recovery_requests', input: approveRecoveryInput, omit: ['accountId'], id: 'required' } }, async ({ ctx, body }) => {
    const { id, attributes = {} } = parseDocument(document, body).data;
    await recovery.approve(ctx, { accountId: id, token: attributes.token, newPassword: attributes.new_password });
  });
}
