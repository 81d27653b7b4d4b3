import { Keypair } from '@stellar/stellar-sdk';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { appWithPlatform } from '../helpers/world';

/**
 * The payload mutations take their secrets inside one input object (registerPlatform's seed,
 * updatePassword's passwords). A variable that does not coerce was answered with the value
 * graphql-js found at fault written out, which for a misspelt or missing field is the whole
 * object: the master seed came back in the error's message. The message still names the field.
 */
const world = appWithPlatform();
let user: CreatedAccount;
beforeAll(async () => {
  user = await createAccount(world.t, world.platform);
});

const REGISTER_PLATFORM = 'mutation ($input: RegisterPlatformInput!) { registerPlatform(input: $input) { account { id } userErrors { code } } }';
const UPDATE_PASSWORD = 'mutation ($input: UpdatePasswordInput!) { updatePassword(input: $input) { userErrors { code } } }';

describe('an input object that does not coerce', () => {
  // Three times each: an operation runs through graphql-js twice, then compiled by graphql-jit.
  it('is answered 400 naming the misspelt field, without the seed beside it', async () => {
    const { t } = world;
    const seed = t.master.secret();
    for (let run = 0; run < 3; run++) {
      const res = await t.client.graphql(REGISTER_PLATFORM, { input: { id: Keypair.random().publicKey(), seed, firstNme: 'Platform' } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toContain('firstNme');
      expect(res.text).not.toContain(seed);
    }
  });

  it('is answered 400 naming the missing field, without the old password beside it', async () => {
    const { t } = world;
    for (let run = 0; run < 3; run++) {
      const res = await t.client.graphql(UPDATE_PASSWORD, { input: { oldPassword: user.password } }, { sign: { keypair: user.keypair } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toContain('newPassword');
      expect(res.text).not.toContain(user.password);
    }
  });
});
