import { resource, type TopLevel } from '../../rest/document';

export const presentToken = (t: { accountId: string; token: string }): TopLevel => ({
  data: resource('jwt', t.accountId, { token: t.token }),
});
