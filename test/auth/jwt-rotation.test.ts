import { Keypair } from '@stellar/stellar-sdk';
import { decodeProtectedHeader } from 'jose';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { claimsOf } from '../../src/modules/credentials/credentials.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { AccountType, insertAccount } from '../helpers/factories';

// docs/operations.md "Key rotation": the token key changes with JWKS overlapping, then the old key is retired.
const master = Keypair.random();
let db: TestDatabase;
let user: Keypair;
const apps: TestApp[] = [];

const start = async (env: Record<string, string>) => {
  const t = await startTestApp({ MASTER_SEED: master.secret(), ...env }, db);
  apps.push(t);
  return t;
};
const tokenFrom = async (t: TestApp) => t.app.jwt.issue(claimsOf(await t.orm.em.fork().findOneOrFail(Account, { id: user.publicKey() })));
const me = async (t: TestApp, bearer: string) => t.client.graphql('{ me { id } }', undefined, { bearer });

beforeAll(async () => {
  db = await createTestDatabase();
  const first = await start({});
  user = await insertAccount(first.orm, AccountType.User, (await insertAccount(first.orm, AccountType.Platform)).publicKey());
});
afterAll(async () => {
  for (const t of apps) await t.close();
  await db.drop();
});

describe('rotating the token key', () => {
  it('publishes and accepts both keys while the old tokens expire, signs with the new one, then refuses the old', async () => {
    const [before] = apps;
    const old = await tokenFrom(before);
    const oldKid = decodeProtectedHeader(old).kid;

    const overlapping = await start({ JWT_KEY_VERSION: '2', JWT_PREVIOUS_KEY: 'true' });
    const jwks = (await overlapping.client.get('/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
    expect(jwks).toHaveLength(2);
    expect(jwks).toContain(oldKid);
    expect((await me(overlapping, old)).body.data.me.id).toBe(user.publicKey());
    const fresh = await tokenFrom(overlapping);
    const freshKid = decodeProtectedHeader(fresh).kid;
    expect(freshKid).not.toBe(oldKid);
    expect(jwks).toContain(freshKid);
    expect((await me(overlapping, fresh)).body.data.me.id).toBe(user.publicKey());

    const retired = await start({ JWT_KEY_VERSION: '2' });
    expect((await retired.client.get('/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid)).toEqual([freshKid]);
    expect((await me(retired, fresh)).body.data.me.id).toBe(user.publicKey());
    const refused = await me(retired, old);
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].extensions.code).toBe('jwt_invalid');
  });
});
