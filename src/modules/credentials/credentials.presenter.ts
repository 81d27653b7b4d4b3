import { resource, type TopLevel } from '../../rest/document';

export const presentToken = (t: { accountId: string; token: string }): TopLevel => ({
  data: resource('jwt', t.accountId, { token: t.token }),
});

/** Credentials are shown by their account id only: the password never leaves the service. */
export const presentCredentials = (c: { accountId: string }): TopLevel => ({ data: resource('credentials', c.accountId) });
