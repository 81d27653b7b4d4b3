import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentVerified } from './verification.presenter';
import { verifyInput } from './verification.input';

export function verificationRoutes(router: AppRouter): void {
  const { verification } = router.services;
  const resendQuery = {
    plain: {
      account_id: { kind: 'string', max: 56, required: true },
      receiver: { kind: 'list', values: ['email', 'phone'], required: true },
    },
  } as const;
  const resendFields = { in: 'query', names: { accountId: 'account_id', receivers: 'receiver' } } as const;
  router.get('/accounts/verification/resend', { summary: 'Send the verification email or text again', query: resendQuery, status: 204, fields: resendFields }, async ({ ctx, query }) => {
    await verification.resend(ctx, { accountId: query.plain.account_id, receivers: query.plain.receiver });
  });
  for (const channel of ['email', 'phone'] as const) {
    router.patch(`/accounts/verification/${channel}`, { summary: `Verify the account’s ${channel} with its token`, body: { type: 'accounts', input: verifyInput, omit: ['accountId'], id: 'required' }, response: 'accounts', fields: { in: 'body', names: { accountId: 'id' } } }, async ({ ctx, body }) => {
      const { data } = parseDocument(inputDocument('accounts'), body);
      return { data: presentVerified(await verification.verify(ctx, channel, { accountId: data.id, token: data.attributes?.token })) };
    });
  }
}
