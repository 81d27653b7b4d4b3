import WebSocket from 'ws';
import { until } from './support';

/** A bare graphql-transport-ws client: from any 127.x.y.z address, anonymous or with a bearer token. */
export interface RawSocket {
  socket: WebSocket;
  /** Every message received, parsed, in order. */
  messages: any[];
  /** Resolves with the close code and reason when the socket closes. */
  closed: Promise<{ code: number; reason: string }>;
  subscribe(id: string, query: string, variables?: Record<string, unknown>): void;
  complete(id: string): void;
  /** The `next` payloads of subscription `id`. */
  nexts(id: string): any[];
  /** The code of the first error of subscription `id` (ending it, or in a result), or 'running' when none came within `ms`. */
  outcome(id: string, ms: number): Promise<string>;
}

/** Opens and acknowledges a socket (throws when the server closes it instead). */
export async function openRaw(port: number, options: { address?: string; token?: string } = {}): Promise<RawSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', { localAddress: options.address ?? '127.0.0.1' });
  const messages: any[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'connection_init', payload: options.token ? { authorization: `Bearer ${options.token}` } : {} }));
  let shut = false;
  void closed.then(() => (shut = true));
  await until(() => shut || messages.some((m) => m.type === 'connection_ack'), 5000, () => 'connection_ack');
  if (shut) throw new Error(`the server closed the socket: ${JSON.stringify(await closed)}`);
  const send = (message: object) => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message));
  return {
    socket,
    messages,
    closed,
    subscribe: (id, query, variables) => send({ id, type: 'subscribe', payload: { query, variables } }),
    complete: (id) => send({ id, type: 'complete' }),
    nexts: (id) => messages.filter((m) => m.id === id && m.type === 'next').map((m) => m.payload),
    async outcome(id, ms) {
      const errors = () => messages.find((m) => m.id === id && (m.type === 'error' || (m.type === 'next' && m.payload.errors)));
      await until(() => errors() !== undefined, ms, () => 'an error').catch(() => undefined);
      const error = errors();
      return (error?.type === 'error' ? error.payload : error?.payload.errors)?.[0]?.extensions?.code ?? 'running';
    },
  };
}

/** Closes the sockets and waits until they are closed. */
export async function closeAll(sockets: RawSocket[]): Promise<void> {
  await Promise.all(sockets.splice(0).map((r) => (r.socket.readyState === WebSocket.CLOSED ? null : (r.socket.close(), r.closed))));
}
