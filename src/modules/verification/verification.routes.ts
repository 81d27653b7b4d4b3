import type { Account } from '../accounts/accounts.entity';
import { inputDocument, parseDocument, resource } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import type { VerificationChannel } from './verification.entity';

const presentVerified = (a: Account) =>
  resource('accounts', a.id, {
    account_type: a.accountType,
    currency: a.currency,
    email: a.email,
    email_verified: a.emailVerified,
    flags: a.flags,
    locale: a.locale,
    phone_number: a.phoneNumber,
    phone_verified: a.phoneVerified,
    platform_id: a.platformId,
  });

export function verificationRoutes(router: AppRouter): void {
  const { verification } = router.services;
  const resendQuery = {
    plain: {
      account_id: { kind: 'string', max: 56, required: true },
      receiver: { kind: 'list', values: ['email', 'phone'], required: true },
    },
  } as const;
  router.get('/accounts/verification/resend', { query: resendQuery, status: 204 }, async ({ rc, query }) => {
    await verification.resend(rc, query.plain.account_id as string, query.plain.receiver as VerificationChannel[]);
  });
  for (const channel of ['email', 'phone'] as const) {
    router.patch(`/accounts/verification/${channel}`, {}, async ({ rc, body }) => {
      const { data } = parseDocument(inputDocument('accounts'), body);
      return { data: presentVerified(await verification.verify(rc, channel, data)) };
    });
  }
}
