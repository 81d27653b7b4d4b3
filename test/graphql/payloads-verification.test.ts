import { createAccount } from '../helpers/factories';
import { appWithTwoPlatforms } from '../helpers/world';

/** confirmEmail and confirmPhone: the payload twins of verifyEmail and verifyPhone. */
const world = appWithTwoPlatforms();

const CONFIRM = (op: 'confirmEmail' | 'confirmPhone') =>
  `mutation($id: String!, $token: String!, $key: String) { ${op}(input: { accountId: $id, token: $token, idempotencyKey: $key }) { account { id emailVerified phoneVerified } userErrors { code field } } }`;

const tokenFor = async (recipient: string) => {
  const res = await world.t.client.as(world.platform).graphql('query($r: String) { outbox(recipient: $r) { body } }', { r: recipient });
  return /^Token: (\S+)$/m.exec(res.body.data.outbox[0].body)![1];
};

describe('confirmEmail and confirmPhone', () => {
  it('verifies with the outbox token, answers a replayed key with the first result, and refuses an unknown account in userErrors', async () => {
    const target = await createAccount(world.t, world.platform, { attributes: { phone_number: '+995555000556' } });
    const token = await tokenFor(target.email);
    for (let i = 0; i < 2; i++) {
      const res = await world.t.client.as(target.keypair).graphql(CONFIRM('confirmEmail'), { id: target.id, token, key: 'ce-1' });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.confirmEmail).toEqual({ account: { id: target.id, emailVerified: true, phoneVerified: false }, userErrors: [] });
    }
    const phone = await world.t.client.graphql(CONFIRM('confirmPhone'), { id: target.id, token: await tokenFor('+995555000556') });
    expect(phone.body.data.confirmPhone).toEqual({ account: { id: target.id, emailVerified: true, phoneVerified: true }, userErrors: [] });
    const bad = await world.t.client.graphql(CONFIRM('confirmEmail'), { id: 'not-an-account', token: 'x' });
    expect(bad.body.errors).toBeUndefined();
    expect(bad.body.data.confirmEmail).toEqual({ account: null, userErrors: [{ code: 'ACCOUNT_NOT_FOUND', field: 'accountId' }] });
  });

  it('keeps a wrong token a top-level authentication error, as verifyEmail answers it', async () => {
    const target = await createAccount(world.t, world.platform);
    const res = await world.t.client.graphql(CONFIRM('confirmEmail'), { id: target.id, token: 'not-the-token' });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_token', status: 401 });
  });
});
