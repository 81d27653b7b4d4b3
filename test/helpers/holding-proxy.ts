import { connect, createServer, type Socket } from 'node:net';
import { listenInstead, track } from './loopback-proxy';

export interface HoldingProxy {
  /** `url` with its host and port replaced by the proxy's. */
  url: string;
  /** Closes every connection through the proxy and refuses new ones, as a server that went away. */
  cut(): void;
  /**
   * Accepts connections again, passing what clients send at once but holding what the server
   * answers on them until `release`: a server slow to answer a new connection's first command.
   */
  hold(): void;
  /** Passes what was held, and from then on everything at once. */
  release(): void;
  /** Drops what the server answers on every connection, until `cut`: answers lost with the connection that was to bring them. */
  swallow(): void;
  /** Resolves once `n` connections were accepted since the last `hold`. */
  accepted(n: number): Promise<void>;
  /** Resolves once `n` connections were refused since the last `cut`: their clients know the server is gone. */
  refused(n: number): Promise<void>;
  close(): Promise<void>;
}

/** A TCP proxy to the server at `url` (a Redis URL, or any other of host and port) that a test can cut and slow. */
export async function startHoldingProxy(url: string): Promise<HoldingProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let state: 'open' | 'cut' | 'holding' | 'swallowing' = 'open';
  let held: { client: Socket; chunks: Buffer[] }[] = [];
  let acceptedSinceHold = 0;
  let refusedSinceCut = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const refusals: { n: number; resolve: () => void }[] = [];
  const counted = (list: { n: number; resolve: () => void }[], count: number) => {
    for (const w of list.filter((w) => w.n <= count)) {
      list.splice(list.indexOf(w), 1);
      w.resolve();
    }
  };
  const server = createServer((client) => {
    if (state === 'cut') {
      client.destroy();
      counted(refusals, ++refusedSinceCut);
      return;
    }
    const upstream = connect({ host: target.hostname, port: Number(target.port) });
    track(sockets, client, upstream);
    const holding = state === 'holding' ? { client, chunks: [] as Buffer[] } : null;
    if (holding) held.push(holding);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (state === 'swallowing') return;
      if (holding && state === 'holding') holding.chunks.push(chunk);
      else client.write(chunk);
    });
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    if (state === 'holding') counted(waiters, ++acceptedSinceHold);
  });
  const listening = await listenInstead(server, url, sockets);
  return {
    ...listening,
    cut: () => {
      state = 'cut';
      refusedSinceCut = 0;
      for (const s of sockets) s.destroy();
    },
    hold: () => {
      state = 'holding';
      acceptedSinceHold = 0;
    },
    swallow: () => {
      state = 'swallowing';
    },
    release: () => {
      state = 'open';
      for (const { client, chunks } of held) for (const chunk of chunks) client.write(chunk);
      held = [];
    },
    accepted: (n) => (acceptedSinceHold >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    refused: (n) => (refusedSinceCut >= n ? Promise.resolve() : new Promise((resolve) => refusals.push({ n, resolve }))),
  };
}
