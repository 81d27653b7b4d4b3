import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A canned answer, in place of the app's. */
export interface Canned {
  status: number;
  body: unknown;
}

/** For each request: the port of the app to forward it to, or the answer to give instead. */
export type Route = (req: IncomingMessage) => number | Canned | Promise<number | Canned>;

export interface FrontProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A front on loopback that stays at one URL while the apps behind it change (a service restarted
 * by its operator keeps its address), and that can answer some requests itself: what an operator
 * shows one client and not another.
 */
export async function startFrontProxy(route: Route): Promise<FrontProxy> {
  const server = createServer((req, res) => {
    Promise.resolve(route(req)).then(
      (to) => {
        if (typeof to !== 'number') {
          res.writeHead(to.status, { 'content-type': 'application/vnd.api+json' });
          res.end(JSON.stringify(to.body));
          return;
        }
        const upstream = request({ host: '127.0.0.1', port: to, agent: false, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
