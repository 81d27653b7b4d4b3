import { insertAccount, AccountType } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('ping', () => {
  it('answers GET / with the time, the network passphrase, the platforms and the master account', async () => {
    const platform = await insertAccount(t.orm, AccountType.Platform);
    const before = Math.floor(Date.now() / 1000);
    const res = await t.client.get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.api+json');
    expect(res.body.data).toBeNull();
    expect(res.body.meta.network_passphrase).toBe('Standalone Network ; February 2017');
    expect(res.body.meta.platforms).toEqual([platform.publicKey()]);
    expect(res.body.meta.master_account_id).toBe(t.master.publicKey());
    expect(res.body.meta.current_time).toBeGreaterThanOrEqual(before);
    expect(res.body.meta.current_time).toBeLessThanOrEqual(before + 5);
  });

  it('answers the same through GraphQL', async () => {
    const res = await t.client.graphql('{ ping { currentTime networkPassphrase platforms masterAccountId } }');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const rest = await t.client.get('/');
    expect(res.body.data.ping).toEqual({
      currentTime: expect.any(Number),
      networkPassphrase: rest.body.meta.network_passphrase,
      platforms: rest.body.meta.platforms,
      masterAccountId: t.master.publicKey(),
    });
  });

  it('never lists the master account as a platform', async () => {
    const res = await t.client.get('/');
    expect(res.body.meta.platforms).not.toContain(t.master.publicKey());
  });

  it('refuses parameters it does not know', async () => {
    const res = await t.client.get('/?foo=1');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ status: '400', code: 'unknown_parameter', source: { parameter: 'foo' } });
  });

  it('serves /healthz and /readyz', async () => {
    expect((await t.client.get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await t.client.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok' });
  });

  it('returns a request id header, keeping a sane one the client sent', async () => {
    const own = await t.client.get('/', { headers: { 'x-request-id': 'abc-123' } });
    expect(own.headers['x-request-id']).toBe('abc-123');
    const generated = await t.client.get('/', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
