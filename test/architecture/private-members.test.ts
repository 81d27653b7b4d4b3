import { lintMessages } from './lint-probes';

// eslint.config.mjs PRIVATE_MEMBERS (issue 29): no file of src reaches a library's `_`-prefixed
// member, which any release may change; each has a public way.
describe("libraries' private members", () => {
  it('refuses a `_`-prefixed member anywhere in src, and takes the public ways and GraphQL’s own names', () => {
    const probes: [string, string, number][] = [
      ['src/client-error.ts', 'export const f = (socket: any) => socket._httpMessage;', 1],
      ['src/live/probe.ts', 'export const f = (ws: any) => ws._socket.write(Buffer.alloc(0));', 1],
      ['src/app.ts', 'export const f = (koa: any) => koa._matchedRoute;', 1],
      ['src/modules/lots/probe.ts', "export const f = (o: any) => o['_private'];", 1],
      ['src/rest/probe.ts', 'export const f = ({ _events }: any) => _events;', 1],
      ['src/graphql/probe.ts', 'export class C { _hidden = 1; }', 1],
      ['src/modules/bids/bids.service.ts', 'export const f = (c: any) => c._queue;', 1],
      ['src/core/transaction.ts', 'export const f = (c: any) => c._queue;', 1],
      ['src/app.ts', 'export const f = (koa: any, request: any) => [koa.routerPath, request.socket];', 0],
      ['src/graphql/probe.ts', 'export const f = (v: any) => [v.__typename, v.__schema];', 0],
      ['src/modules/lots/probe.ts', 'export const f = (_unused: number, { a: _ }: any) => _;', 0],
    ];
    expect(lintMessages('no-restricted-syntax', probes)).toEqual(probes.map((p) => p[2]));
  });
});
