import { Keypair } from '@stellar/stellar-sdk';
import { importJWK, jwtVerify } from 'jose';
import { JwtService } from '../../src/auth/jwt';
import { BlacklistEntry, Account } from '../../src/modules/accounts/accounts.entity';
import { claimsOf } from '../../src/modules/credentials/credentials.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { AccountType, insertAccount } from '../helpers/factories';

let t: TestApp;
let platform: Keypair;
let user: Keypair;

const claim = (token: string, name: 'iat' | 'exp'): number => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())[name];
/** Until the clock (whole seconds, as the service reads it) reaches `second`. */
const untilSecond = (second: number) => new Promise((r) => setTimeout(r, Math.max(0, second * 1000 - Date.now())));

async function tokenFor(keypair: Keypair, service: JwtService = t.app.jwt): Promise<string> {
  const account = await t.orm.em.fork().findOneOrFail(Account, { id: keypair.publicKey() });
  return service.issue(claimsOf(account));
}

beforeAll(async () => {
  t = await startTestApp();
  platform = await insertAccount(t.orm, AccountType.Platform);
  user = await insertAccount(t.orm, AccountType.User, platform.publicKey());
});
afterAll(() => t.close());

describe('bearer tokens', () => {
  it('identify the caller', async () => {
    const res = await t.client.graphql('{ me { id platformId } }', undefined, { bearer: await tokenFor(user) });
    expect(res.body.data.me).toEqual({ id: user.publicKey(), platformId: platform.publicKey() });
  });

  it('carry the documented claims and verify against the published JWKS', async () => {
    const token = await tokenFor(user);
    const jwks = await t.client.get('/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys).toHaveLength(1);
    const jwk = jwks.body.keys[0];
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: expect.any(String) });
    expect(jwk.d).toBeUndefined();
    const { payload, protectedHeader } = await jwtVerify(token, await importJWK(jwk, 'EdDSA'));
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: jwk.kid });
    expect(payload).toMatchObject({
      sub: user.publicKey(),
      account_type: 4,
      platform_id: platform.publicKey(),
      trusting_platforms: [],
      email_verified: false,
      phone_verified: false,
      jti: expect.any(String),
    });
    expect((payload.exp as number) - (payload.iat as number)).toBe(3600);
  });

  it('are refused when expired', async () => {
    const shortLived = await JwtService.create(t.master, 1);
    const token = await tokenFor(user, shortLived);
    await untilSecond(claim(token, 'exp'));
    const res = await t.client.graphql('{ me { id } }', undefined, { bearer: token });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions).toEqual({ code: 'jwt_invalid', status: 401 });
  });

  it('are refused when forged with another key', async () => {
    const forger = await JwtService.create(Keypair.random(), 3600);
    const res = await t.client.graphql('{ me { id } }', undefined, { bearer: await tokenFor(user, forger) });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('jwt_invalid');
  });

  it('are refused when malformed, also on public operations', async () => {
    const res = await t.client.get('/', { bearer: 'not.a.token' });
    expect(res.status).toBe(401);
    expect(res.body.errors[0]).toMatchObject({ status: '401', code: 'jwt_invalid' });
  });

  it('must name the same account as a signature sent with them', async () => {
    const other = await insertAccount(t.orm, AccountType.User, platform.publicKey());
    const res = await t.client.get('/', { bearer: await tokenFor(other), sign: { keypair: user } });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('credentials_mismatch');
    const same = await t.client.get('/', { bearer: await tokenFor(user), sign: { keypair: user } });
    expect(same.status).toBe(200);
  });
});

describe('PATCH /jwt', () => {
  it('returns a new token with a later expiry for a valid token', async () => {
    const first = await tokenFor(user);
    await untilSecond(claim(first, 'iat') + 1);
    const res = await t.client.patch('/jwt', undefined, { bearer: first });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'jwt', id: user.publicKey(), attributes: { token: expect.any(String) } });
    expect(claim(res.body.data.attributes.token, 'exp')).toBeGreaterThan(claim(first, 'exp'));
    const me = await t.client.graphql('{ me { id } }', undefined, { bearer: res.body.data.attributes.token });
    expect(me.body.data.me.id).toBe(user.publicKey());
  });

  it('answers 403 jwt_required without a token, even with a valid signature', async () => {
    const unsigned = await t.client.patch('/jwt');
    expect(unsigned.status).toBe(403);
    expect(unsigned.body.errors[0].code).toBe('jwt_required');
    const signed = await t.client.as(user).patch('/jwt');
    expect(signed.status).toBe(403);
    expect(signed.body.errors[0].code).toBe('jwt_required');
  });

  it('answers 404 when the account inside the token is gone', async () => {
    const ghost = await insertAccount(t.orm, AccountType.User, platform.publicKey());
    const token = await tokenFor(ghost);
    await t.orm.em.fork().nativeDelete(Account, { id: ghost.publicKey() });
    const res = await t.client.patch('/jwt', undefined, { bearer: token });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('account_not_found');
  });

  it('is served through GraphQL as refreshToken', async () => {
    const res = await t.client.graphql('mutation { refreshToken { accountId token } }', undefined, { bearer: await tokenFor(user) });
    expect(res.body.data.refreshToken.accountId).toBe(user.publicKey());
  });
});

describe('blacklist hook', () => {
  it('stops every authenticated operation of a stopped account, also with a token issued before', async () => {
    const stopped = await insertAccount(t.orm, AccountType.User, platform.publicKey());
    const token = await tokenFor(stopped);
    const em = t.orm.em.fork();
    em.create(BlacklistEntry, { accountId: stopped.publicKey(), state: 'stopped' });
    await em.flush();
    const viaToken = await t.client.graphql('{ me { id } }', undefined, { bearer: token });
    expect(viaToken.status).toBe(403);
    expect(viaToken.body.errors[0].extensions).toEqual({ code: 'account_blocked', status: 403 });
    const viaSignature = await t.client.as(stopped).get('/');
    expect(viaSignature.status).toBe(403);
    expect(viaSignature.body.errors[0].code).toBe('account_blocked');
  });

  it('lets a paused account sign in and read', async () => {
    const paused = await insertAccount(t.orm, AccountType.User, platform.publicKey());
    const em = t.orm.em.fork();
    em.create(BlacklistEntry, { accountId: paused.publicKey(), state: 'paused' });
    await em.flush();
    const res = await t.client.as(paused).graphql('{ me { id } }');
    expect(res.body.data.me.id).toBe(paused.publicKey());
  });
});
