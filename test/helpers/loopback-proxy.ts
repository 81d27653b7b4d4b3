import type { AddressInfo, Server, Socket } from 'node:net';

/** Keeps the sockets of a test's TCP proxy in `sockets` while they are open; their errors show as their closing. */
export function track(sockets: Set<Socket>, ...added: Socket[]): void {
  for (const s of added) {
    sockets.add(s);
    s.on('close', () => sockets.delete(s)).on('error', () => undefined);
  }
}

/** Starts a proxy's `server` on a free loopback port: `url` pointing there instead, and a close that ends its connections first. */
export async function listenInstead(server: Server, url: string, sockets: Set<Socket>): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.toString(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
