import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

/** The request's headers as sent, with the peer's address appended to X-Forwarded-For (nginx's `$proxy_add_x_forwarded_for`). */
function forwardedHeaders(req: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
  const given = pairs.filter(([name]) => name.toLowerCase() === 'x-forwarded-for').map(([, value]) => value);
  const peer = req.socket.remoteAddress ?? '';
  return [...pairs.filter(([name]) => name.toLowerCase() !== 'x-forwarded-for'), ['X-Forwarded-For', [...given, peer].join(', ')]];
}

/**
 * A reverse proxy on loopback, as the nginx of docker-compose.yml: it forwards HTTP requests and
 * WebSocket upgrades to the app on `port`, connecting from the loopback address `from`, and
 * appends each client's address to X-Forwarded-For.
 */
export async function startForwardingProxy(port: number, from: string): Promise<ForwardingProxy> {
  const server = createServer((req, res) => {
    const upstream = httpRequest({ host: '127.0.0.1', port, localAddress: from, agent: false, method: req.method, path: req.url, headers: forwardedHeaders(req).flat() }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    const upstream = connect({ host: '127.0.0.1', port, localAddress: from }, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`, ...forwardedHeaders(req).map(([name, value]) => `${name}: ${value}`)];
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    const end = () => {
      upstream.destroy();
      socket.destroy();
    };
    for (const side of [upstream, socket]) side.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
