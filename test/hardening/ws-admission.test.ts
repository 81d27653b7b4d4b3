import WebSocket from 'ws';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

const world = appWithPlatform({
  env: { WS_MAX_CONNECTIONS: '3', WS_MAX_CONNECTIONS_PER_ADDRESS: '2', WS_MAX_TOTAL_SUBSCRIPTIONS: '4', WS_MAX_SUBSCRIPTIONS_PER_ADDRESS: '3', WS_MAX_SUBSCRIPTIONS: '10' },
});

interface Raw {
  socket: WebSocket;
  /** Resolves with the close code and reason when the server closes the socket. */
  closed: Promise<{ code: number; reason: string }>;
  messages: any[];
}

const opened: Raw[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => (r.socket.readyState === WebSocket.CLOSED ? null : (r.socket.close(), r.closed))));
});

/** A graphql-transport-ws socket from `address` (every 127.x.y.z is this machine), acknowledged or closed. */
async function open(address: string): Promise<Raw> {
  const socket = new WebSocket(`ws://127.0.0.1:${world.t.port}/graphql`, 'graphql-transport-ws', { localAddress: address });
  const messages: any[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const raw = { socket, closed, messages };
  opened.push(raw);
  socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await Promise.race([closed, until(() => messages.some((m) => m.type === 'connection_ack'))]);
  return raw;
}

async function until(done: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const acknowledged = (r: Raw) => r.messages.some((m) => m.type === 'connection_ack');

const bidsOf = (lotId: string) => `subscription { bidPlaced(lotId: "${lotId}") { amount } }`;
const subscribe = (r: Raw, id: string, query: string) => r.socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query } }));
/** The code of the error that ended subscription `id`, or 'running' when none came within `ms`. */
async function errorOf(r: Raw, id: string, ms: number): Promise<string> {
  await until(() => r.messages.some((m) => m.id === id && m.type === 'error'), ms).catch(() => undefined);
  return r.messages.find((m) => m.id === id && m.type === 'error')?.payload[0]?.extensions?.code ?? 'running';
}

describe('WebSocket admission: total and per-address caps', () => {
  it('closes a socket beyond WS_MAX_CONNECTIONS_PER_ADDRESS with 1013 too_many_connections; another address still connects', async () => {
    const [a, b] = [await open('127.0.0.1'), await open('127.0.0.1')];
    expect([acknowledged(a), acknowledged(b)]).toEqual([true, true]);
    const third = await open('127.0.0.1');
    expect(await third.closed).toEqual({ code: 1013, reason: 'too_many_connections' });
    expect(acknowledged(third)).toBe(false);
    const other = await open('127.0.0.2');
    expect(acknowledged(other)).toBe(true);
  });

  it('closes a socket beyond WS_MAX_CONNECTIONS whatever its address, and takes one again once a socket left', async () => {
    const sockets = [await open('127.0.0.1'), await open('127.0.0.2'), await open('127.0.0.3')];
    expect(sockets.map(acknowledged)).toEqual([true, true, true]);
    const fourth = await open('127.0.0.4');
    expect(await fourth.closed).toEqual({ code: 1013, reason: 'too_many_connections' });
    sockets[0].socket.close();
    await sockets[0].closed;
    // The server counts the socket out when its side of the close is done.
    await new Promise((r) => setTimeout(r, 200));
    const again = await open('127.0.0.4');
    expect(acknowledged(again)).toBe(true);
  });

  it('refuses subscriptions beyond WS_MAX_SUBSCRIPTIONS_PER_ADDRESS and WS_MAX_TOTAL_SUBSCRIPTIONS with too_many_subscriptions', async () => {
    const query = bidsOf((await createLot(world.t, world.platform)).id);
    const [a, b] = [await open('127.0.0.1'), await open('127.0.0.1')];
    for (const id of ['1', '2']) subscribe(a, id, query);
    subscribe(b, '3', query);
    subscribe(b, '4', query);
    expect(await errorOf(b, '4', 2000)).toBe('too_many_subscriptions');
    expect(await errorOf(a, '1', 2000)).toBe('running');
    const c = await open('127.0.0.2');
    subscribe(c, '5', query);
    expect(await errorOf(c, '5', 2000)).toBe('running');
    subscribe(c, '6', query);
    expect(await errorOf(c, '6', 2000)).toBe('too_many_subscriptions');
    // One ends: the address has room again.
    a.socket.send(JSON.stringify({ id: '1', type: 'complete' }));
    await new Promise((r) => setTimeout(r, 200));
    subscribe(b, '7', query);
    expect(await errorOf(b, '7', 2000)).toBe('running');
  });

  it('counts the subscriptions of a closed socket out of both caps, again and again', async () => {
    const query = bidsOf((await createLot(world.t, world.platform)).id);
    const outcome = (r: Raw, id: string) => {
      subscribe(r, id, query);
      return errorOf(r, id, 500);
    };
    const steady = await open('127.0.0.3');
    expect([await outcome(steady, 's1'), await outcome(steady, 's2')]).toEqual(['running', 'running']);
    for (let round = 0; round < 3; round++) {
      const a = await open('127.0.0.1');
      expect([await outcome(a, `${round}-1`), await outcome(a, `${round}-2`)]).toEqual(['running', 'running']);
      // Four run: the service is full, whichever address asks.
      expect(await outcome(a, `${round}-3`)).toBe('too_many_subscriptions');
      expect(await outcome(steady, `s${round}-3`)).toBe('too_many_subscriptions');
      a.socket.close();
      await a.closed;
      await new Promise((r) => setTimeout(r, 200));
    }
    const last = await open('127.0.0.1');
    expect([await outcome(last, 'l1'), await outcome(last, 'l2')]).toEqual(['running', 'running']);
  });
});
