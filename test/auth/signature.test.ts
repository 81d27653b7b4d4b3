import { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { signHeaders } from '../helpers/client';
import { AccountType, insertAccount, insertSigner } from '../helpers/factories';

const ME = '{ me { id accountType } }';
let t: TestApp;
let user: Keypair;

beforeAll(async () => {
  t = await startTestApp();
  const platform = await insertAccount(t.orm, AccountType.Platform);
  user = await insertAccount(t.orm, AccountType.User, platform.publicKey());
});
afterAll(() => t.close());

const errorCode = (res: { body: any }) => res.body.errors?.[0]?.extensions?.code ?? res.body.errors?.[0]?.code;

describe('request signatures', () => {
  it('identifies the signing account', async () => {
    const res = await t.client.as(user).graphql(ME);
    expect(res.status).toBe(200);
    expect(res.body.data.me).toEqual({ id: user.publicKey(), accountType: 4 });
  });

  it('accepts the parameters in Authorization: Signature', async () => {
    const res = await t.client.graphql(ME, undefined, { sign: { keypair: user, viaAuthorization: true } });
    expect(res.body.data.me.id).toBe(user.publicKey());
  });

  it('accepts an IMF-fixdate in the Date header', async () => {
    const res = await t.client.graphql(ME, undefined, { sign: { keypair: user, dateHeader: 'date' } });
    expect(res.body.data.me.id).toBe(user.publicKey());
  });

  it('refuses a request whose signed header was changed after signing', async () => {
    const headers: Record<string, string> = { 'x-extra': 'one' };
    signHeaders('GET', '/', headers, null, { keypair: user, headers: ['(request-target)', 'x-date', 'x-extra'] });
    expect((await t.client.get('/', { headers: { ...headers } })).status).toBe(200);
    const tampered = await t.client.get('/', { headers: { ...headers, 'x-extra': 'two' } });
    expect(tampered.status).toBe(401);
    expect(errorCode(tampered)).toBe('signature_invalid');
    const otherTarget = await t.client.get('/enums/wheels', { headers: { ...headers } });
    expect(otherTarget.status).toBe(401);
    expect(errorCode(otherTarget)).toBe('signature_invalid');
  });

  it('refuses a signature whose bytes were changed', async () => {
    const target = '/';
    const headers: Record<string, string> = {};
    signHeaders('GET', target, headers, null, { keypair: user });
    const sig = /signature="([^"]+)"/.exec(headers.signature)![1];
    const bytes = Buffer.from(sig, 'base64');
    bytes[10] ^= 0xff;
    headers.signature = headers.signature.replace(sig, bytes.toString('base64'));
    const res = await t.client.get(target, { headers });
    expect(res.status).toBe(401);
    expect(res.body.errors[0]).toMatchObject({ status: '401', code: 'signature_invalid' });
  });

  it('refuses a signature made with another key than keyId', async () => {
    const res = await t.client.get('/', { sign: { keypair: Keypair.random(), keyId: user.publicKey() } });
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('signature_invalid');
  });

  it('refuses a keyId that is neither an account nor a signer', async () => {
    const res = await t.client.get('/', { sign: { keypair: Keypair.random() } });
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('signature_invalid');
  });

  it.each([
    ['expired', -301],
    ['future', 301],
  ])('refuses a %s date outside the window', async (_name, seconds) => {
    const res = await t.client.get('/', { sign: { keypair: user, at: new Date(Date.now() + seconds * 1000) } });
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('signature_expired');
  });

  it('accepts a date just inside the window', async () => {
    const res = await t.client.get('/', { sign: { keypair: user, at: new Date(Date.now() - 290 * 1000) } });
    expect(res.status).toBe(200);
  });

  it('refuses a body changed after signing', async () => {
    const original = Buffer.from(JSON.stringify({ query: ME }));
    const headers: Record<string, string> = {};
    signHeaders('POST', '/graphql', headers, original, { keypair: user });
    const changed = Buffer.from(JSON.stringify({ query: '{ ping { currentTime } }' }));
    const res = await t.client.request('POST', '/graphql', { raw: changed, headers, contentType: 'application/json' });
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('digest_mismatch');
  });

  it('refuses a body whose digest is not signed', async () => {
    const res = await t.client.graphql(ME, undefined, { sign: { keypair: user, headers: ['(request-target)', 'x-date'] } });
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('digest_mismatch');
  });

  it('refuses a signature without a signed date', async () => {
    const res = await t.client.get('/', { sign: { keypair: user, headers: ['(request-target)'] } });
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('signature_invalid');
  });

  it('refuses the same write signature twice but allows repeated reads', async () => {
    const body = Buffer.from(JSON.stringify({ query: ME }));
    const headers: Record<string, string> = {};
    signHeaders('POST', '/graphql', headers, body, { keypair: user });
    const send = () => t.client.request('POST', '/graphql', { raw: body, headers: { ...headers }, contentType: 'application/json' });
    expect((await send()).status).toBe(200);
    const replay = await send();
    expect(replay.status).toBe(401);
    expect(errorCode(replay)).toBe('signature_replayed');

    const getHeaders: Record<string, string> = {};
    signHeaders('GET', '/', getHeaders, null, { keypair: user });
    expect((await t.client.get('/', { headers: { ...getHeaders } })).status).toBe(200);
    expect((await t.client.get('/', { headers: { ...getHeaders } })).status).toBe(200);
  });

  it('refuses a replay on another instance sharing the database', async () => {
    const body = Buffer.from(JSON.stringify({ query: ME }));
    const headers: Record<string, string> = {};
    signHeaders('POST', '/graphql', headers, body, { keypair: user });
    const second = await startTestApp({ MASTER_SEED: t.master.secret() }, { url: t.config.DATABASE_URL!, drop: async () => {} });
    try {
      expect((await t.client.request('POST', '/graphql', { raw: body, headers: { ...headers }, contentType: 'application/json' })).status).toBe(200);
      const replay = await second.client.request('POST', '/graphql', { raw: body, headers: { ...headers }, contentType: 'application/json' });
      expect(replay.status).toBe(401);
      expect(errorCode(replay)).toBe('signature_replayed');
    } finally {
      await second.close();
    }
  });

  it('accepts a signed write once when it and its replays arrive at the same moment', async () => {
    const body = Buffer.from(JSON.stringify({ query: ME }));
    const headers: Record<string, string> = {};
    signHeaders('POST', '/graphql', headers, body, { keypair: user });
    const send = () => t.client.request('POST', '/graphql', { raw: body, headers: { ...headers }, contentType: 'application/json' });
    const statuses = (await Promise.all([send(), send(), send(), send()])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401, 401, 401]);
  });

  it('keeps the seen signatures in a logged table, so that a crash or a failover does not forget them', async () => {
    const [row] = await t.orm.em.fork().getConnection().execute<{ persistence: string }[]>(`select relpersistence as persistence from pg_class where relname = 'seen_signatures'`);
    expect(row.persistence).toBe('p');
  });

  it('lets a registered signer act for an account named by X-Account-Id', async () => {
    const signer = Keypair.random();
    await insertSigner(t.orm, user.publicKey(), signer);
    const res = await t.client.graphql(ME, undefined, {
      headers: { 'x-account-id': user.publicKey() },
      sign: { keypair: signer, headers: ['(request-target)', 'x-date', 'digest', 'x-account-id'] },
    });
    expect(res.body.data.me.id).toBe(user.publicKey());
  });

  it('refuses X-Account-Id when it is not signed', async () => {
    const signer = Keypair.random();
    await insertSigner(t.orm, user.publicKey(), signer);
    const res = await t.client.graphql(ME, undefined, { headers: { 'x-account-id': user.publicKey() }, sign: { keypair: signer } });
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('signature_invalid');
  });

  it('refuses a key that is not a signer of the account named by X-Account-Id', async () => {
    const stranger = await insertAccount(t.orm, AccountType.User);
    const res = await t.client.graphql(ME, undefined, {
      headers: { 'x-account-id': user.publicKey() },
      sign: { keypair: stranger, headers: ['(request-target)', 'x-date', 'digest', 'x-account-id'] },
    });
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('signature_invalid');
  });

  it.each([
    ['garbage', 'nonsense'],
    ['an unknown algorithm', 'keyId="GA",algorithm="rsa-sha256",headers="(request-target)",signature="AAAA"'],
  ])('refuses %s in the Signature header', async (_name, value) => {
    const res = await t.client.get('/', { headers: { signature: value } });
    expect(res.status).toBe(401);
    expect(errorCode(res)).toBe('signature_invalid');
  });

  it('answers 401 unauthenticated to an operation that needs a caller', async () => {
    const res = await t.client.graphql(ME);
    expect(res.body.errors[0].extensions).toEqual({ code: 'unauthenticated', status: 401 });
  });
});

describe('legacy signatures', () => {
  it('accepts a signature over (request-target) alone only when SIGNATURE_LEGACY is on', async () => {
    const legacy = await startTestApp({ SIGNATURE_LEGACY: 'true', MASTER_SEED: t.master.secret() }, { url: t.config.DATABASE_URL!, drop: async () => {} });
    try {
      const res = await legacy.client.graphql(ME, undefined, { sign: { keypair: user, headers: ['(request-target)'] } });
      expect(res.body.data.me.id).toBe(user.publicKey());
    } finally {
      await legacy.close();
    }
    const strict = await t.client.graphql(ME, undefined, { sign: { keypair: user, headers: ['(request-target)'] } });
    expect(strict.status).toBe(401);
  });
});
