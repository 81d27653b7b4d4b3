import { connect, createServer, type Socket } from 'node:net';
import { listenInstead, track } from './loopback-proxy';

export interface LingeringProxy {
  /** `url` with its host and port replaced by the proxy's. */
  url: string;
  close(): Promise<void>;
}

/**
 * A TCP proxy to the database at `url` that passes every byte at once but tells the client its
 * server closed the connection only `lingerMs` later: a server process that is slow to exit after
 * its last message, as a loaded machine's is. What the client does in between with a connection
 * that was told FATAL is what this shows.
 */
export async function startLingeringProxy(url: string, lingerMs: number): Promise<LingeringProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect({ host: target.hostname, port: Number(target.port || 5432) });
    track(sockets, client, upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk) => client.write(chunk));
    upstream.on('end', () => setTimeout(() => client.end(), lingerMs));
    client.on('close', () => upstream.destroy());
  });
  return listenInstead(server, url, sockets);
}
