import { Keypair } from '@stellar/stellar-sdk';
import WebSocket from 'ws';
import { startServiceProcess, type ServiceProcess } from '../faults/service-process';
import { startTestApp, type TestApp } from '../helpers/app';
import { TestClient, type TestResponse } from '../helpers/client';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { startForwardingProxy, type ForwardingProxy } from '../helpers/forwarding-proxy';

/** Low address limits, which the test world turns off elsewhere. An hour: no window turns over mid-test. */
const LIMITS = {
  RATE_LIMIT_WINDOW: '3600',
  RATE_LIMIT_WRITES_PER_ADDRESS: '3',
  // Below the writes: a POST /jwt is a write too.
  SIGN_IN_FAILURES_PER_ADDRESS: '2',
  WS_MAX_CONNECTIONS_PER_ADDRESS: '2',
};

/** A write anybody may send: a conversion, which changes nothing but is a POST. */
const write = (client: TestClient, forged?: string) =>
  client.post('/convert', { data: [{ attributes: { from: 'EUR', to: 'USD', amount: 1 } }] }, forged ? { headers: { 'X-Forwarded-For': forged } } : {});
const mutation = (client: TestClient) => client.graphql('mutation { markNotificationsRead(ids: []) }');
/** A wrong password on an account nobody holds: counted like any failure, and it needs no account. */
const guess = (client: TestClient, forged?: string) =>
  client.post('/jwt', { data: { type: 'jwt', attributes: { account_id: Keypair.random().publicKey(), password: 'Summer2026!' } } }, forged ? { headers: { 'X-Forwarded-For': forged } } : {});

const statuses = async (requests: (() => Promise<TestResponse>)[]) => {
  const answered = [];
  for (const request of requests) answered.push((await request()).status);
  return answered;
};
const times = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));

/** A graphql-transport-ws socket through `base` from the loopback address `from`: acknowledged, or closed with its code and reason. */
async function socketFrom(base: string, from: string): Promise<{ socket: WebSocket; outcome: string }> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { localAddress: from });
  const outcome = new Promise<string>((resolve) => {
    socket.once('close', (code, reason) => resolve(`${code} ${reason.toString()}`));
    socket.on('message', (data) => JSON.parse(data.toString()).type === 'connection_ack' && resolve('acknowledged'));
  });
  await new Promise<void>((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  return { socket, outcome: await outcome };
}

describe('behind a trusted proxy (TRUST_PROXY names its address)', () => {
  const PROXY = '127.0.9.1';
  let t: TestApp;
  let proxy: ForwardingProxy;
  const via = (client: string) => new TestClient(proxy.url).from(client);
  const sockets: WebSocket[] = [];
  beforeAll(async () => {
    t = await startTestApp({ ...LIMITS, TRUST_PROXY: PROXY });
    proxy = await startForwardingProxy(t.port, PROXY);
  });
  afterEach(() => Promise.all(sockets.splice(0).map((s) => (s.readyState === WebSocket.CLOSED ? null : new Promise((closed) => s.once('close', closed).close())))));
  afterAll(async () => {
    await proxy.close();
    await t.close();
  });

  it('counts REST writes and GraphQL mutations by the client address the proxy forwarded, not by the proxy’s', async () => {
    const first = via('127.0.20.1');
    expect(await statuses(times(4, () => () => write(first)))).toEqual([200, 200, 200, 429]);
    const refused = await write(first);
    expect(refused.body.errors[0]).toMatchObject({ code: 'too_many_requests', detail: 'more than 3 writes from this address in 3600 seconds; try again later' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await mutation(first)).body.errors[0].extensions.code).toBe('too_many_requests');
    const second = via('127.0.20.2');
    expect((await write(second)).status).toBe(200);
    expect((await mutation(second)).body.errors?.[0]?.extensions?.code).not.toBe('too_many_requests');
  });

  it('ignores an X-Forwarded-For that the client wrote, through the proxy or straight from an untrusted peer', async () => {
    const throughProxy = via('127.0.21.1');
    expect(await statuses(times(4, (i) => () => write(throughProxy, `203.0.113.${i + 1}`)))).toEqual([200, 200, 200, 429]);
    // A peer the setting does not name cannot spend another client's budget by naming it.
    const direct = t.client.from('127.0.21.2');
    expect(await statuses(times(4, () => () => write(direct, '127.0.21.3')))).toEqual([200, 200, 200, 429]);
    expect((await write(via('127.0.21.3'))).status).toBe(200);
  });

  it('admits WebSockets per forwarded client address', async () => {
    const opened = [];
    for (const from of ['127.0.22.1', '127.0.22.1', '127.0.22.1', '127.0.22.2']) {
      const { socket, outcome } = await socketFrom(proxy.url, from);
      sockets.push(socket);
      opened.push(outcome);
    }
    expect(opened).toEqual(['acknowledged', 'acknowledged', '1013 too_many_connections', 'acknowledged']);
  });

  it('counts failed sign-ins per forwarded client address', async () => {
    const sprayer = via('127.0.23.1');
    expect(await statuses(times(2, () => () => guess(sprayer)))).toEqual([401, 401]);
    const refused = await guess(sprayer);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].code).toBe('too_many_attempts');
    expect((await guess(via('127.0.23.2'))).status).toBe(401);
  });

  it('never takes a forwarded request for a local one', async () => {
    expect((await t.client.get('/metrics')).status).toBe(200);
    const forwarded = await via('127.0.0.1').get('/metrics');
    expect(forwarded.status).toBe(403);
    expect(forwarded.body.errors[0].code).toBe('local_only');
  });

  it('counts an IPv6 /64 as one address, and an IPv4-mapped address as its IPv4 one', async () => {
    // The test speaks as the trusted proxy itself, forwarding clients that loopback cannot be.
    const proxied = t.client.from(PROXY);
    const from64 = ['2001:db8:a:b::1', '2001:db8:a:b::2', '2001:db8:a:b:ffff:ffff:ffff:ffff', '2001:db8:a:b:1234::5'];
    expect(await statuses(from64.map((a) => () => write(proxied, a)))).toEqual([200, 200, 200, 429]);
    expect((await write(proxied, '2001:db8:a:c::1')).status).toBe(200);
    expect(await statuses(['198.51.100.7', '::ffff:198.51.100.7', '198.51.100.7', '::ffff:c633:6407'].map((a) => () => write(proxied, a)))).toEqual([200, 200, 200, 429]);
    expect(await statuses(['2001:db8:d:e::1', '2001:db8:d:e::2', '2001:db8:d:e::3'].map((a) => () => guess(proxied, a)))).toEqual([401, 401, 429]);
    expect((await guess(proxied, '2001:db8:d:f::1')).status).toBe(401);
  });

  it('leaves a trusted proxy’s own address as the client’s when the entry it forwarded is no address', async () => {
    const proxied = t.client.from(PROXY);
    expect(await statuses(['unknown', 'not-an-address', '<script>', 'x'.repeat(2000)].map((a) => () => write(proxied, a)))).toEqual([200, 200, 200, 429]);
    expect((await write(proxied, '127.0.27.1')).status).toBe(200);
  });
});

describe('behind a proxy trusted by its hop count (TRUST_PROXY=1, as docker-compose.yml sets it)', () => {
  let t: TestApp;
  let proxy: ForwardingProxy;
  beforeAll(async () => {
    t = await startTestApp({ ...LIMITS, TRUST_PROXY: '1' });
    proxy = await startForwardingProxy(t.port, '127.0.9.2');
  });
  afterAll(async () => {
    await proxy.close();
    await t.close();
  });

  it('takes the address the proxy appended, whatever the client wrote before it', async () => {
    const client = new TestClient(proxy.url).from('127.0.25.1');
    expect(await statuses(times(4, (i) => () => write(client, `203.0.113.${i + 1}, 198.51.100.${i + 1}`)))).toEqual([200, 200, 200, 429]);
    expect((await write(new TestClient(proxy.url).from('127.0.25.2'))).status).toBe(200);
  });
});

describe('the request log of the service process behind a trusted proxy', () => {
  let db: TestDatabase;
  let service: ServiceProcess;
  let proxy: ForwardingProxy;
  beforeAll(async () => {
    db = await createTestDatabase();
    service = await startServiceProcess({ DATABASE_URL: db.url, MASTER_SEED: Keypair.random().secret(), JOBS: 'off', LOG_LEVEL: 'info', TRUST_PROXY: '127.0.9.4' });
    proxy = await startForwardingProxy(service.port, '127.0.9.4');
  }, 90_000);
  afterAll(async () => {
    await proxy.close();
    await service.stop();
    await db.drop();
  });

  it('names the client the proxy forwarded, not the proxy, nor what the client wrote', async () => {
    const answer = await new TestClient(proxy.url).from('127.0.26.1').get('/healthz', { headers: { 'X-Forwarded-For': '203.0.113.50' } });
    const requestId = answer.headers['x-request-id'];
    await until(() => service.output().includes(String(requestId)));
    const line = service
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((entry) => entry.requestId === requestId && entry.msg === 'request');
    expect(line).toMatchObject({ address: '127.0.26.1', path: '/healthz', status: 200 });
  });
});

async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('with TRUST_PROXY off (the default)', () => {
  let t: TestApp;
  let proxy: ForwardingProxy;
  beforeAll(async () => {
    t = await startTestApp(LIMITS);
    proxy = await startForwardingProxy(t.port, '127.0.9.3');
  });
  afterAll(async () => {
    await proxy.close();
    await t.close();
  });

  it('ignores X-Forwarded-For altogether: the clients behind a proxy share its address, and a forged header changes nothing', async () => {
    expect(t.config.TRUST_PROXY).toBeNull();
    expect(await statuses(times(3, (i) => () => write(new TestClient(proxy.url).from(`127.0.24.${i + 1}`))))).toEqual([200, 200, 200]);
    expect((await write(new TestClient(proxy.url).from('127.0.24.9'))).status).toBe(429);
    const direct = t.client.from('127.0.24.20');
    expect(await statuses(times(4, (i) => () => write(direct, `203.0.113.${i + 1}`)))).toEqual([200, 200, 200, 429]);
  });
});
