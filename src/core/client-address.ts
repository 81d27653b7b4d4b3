import type { IncomingMessage, Server } from 'node:http';
import { isIP } from 'node:net';
import proxyAddr from 'proxy-addr';

/** TRUST_PROXY: the peers whose `X-Forwarded-For` is believed, as a count of hops or a list of addresses and ranges. */
export type ProxyTrust = { hops: number } | { ranges: string[] } | null;

/** Who sent a request, as far as limits, the loopback rule and logs go. */
export interface Client {
  /** The peer's address, or behind trusted proxies the address the nearest of them forwarded. */
  address: string;
  /** A loopback peer that no proxy forwarded: the caller is on this machine. */
  local: boolean;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

const seen = new WeakMap<IncomingMessage, Client>();

function compile(trust: ProxyTrust): (address: string, hop: number) => boolean {
  if (!trust) return () => false;
  if ('hops' in trust) return (_address, hop) => hop < trust.hops;
  return proxyAddr.compile(trust.ranges);
}

/** Throws unless every entry of a TRUST_PROXY list is an address, a range or one of proxy-addr's names. */
export function assertTrustRanges(ranges: string[]): void {
  proxyAddr.compile(ranges);
}

/**
 * Resolves each request's client once, when the server first sees it (an HTTP request or a
 * WebSocket upgrade), before any other listener runs. `X-Forwarded-For` is read only from peers
 * `trust` names, and only its entries that trusted hops appended: what an untrusted client writes
 * there is ignored, and so is the header altogether when `trust` is null.
 */
export function resolveClients(server: Server, trust: ProxyTrust): void {
  const trusted = compile(trust);
  const resolve = (req: IncomingMessage) => {
    const peer = req.socket.remoteAddress ?? '';
    // The peer, the trusted hops behind it, then the client: an entry that is no address (a
    // trusted hop's mistake, a count of hops beyond the proxies there are) leaves the nearest that is.
    const address = proxyAddr.all(req, trusted).findLast((a) => isIP(a) !== 0) ?? peer;
    // Any forwarding header means a proxy stands between: a forwarded request is never local.
    const local = LOOPBACK.test(peer) && req.headers['x-forwarded-for'] === undefined && req.headers.forwarded === undefined;
    seen.set(req, { address, local });
  };
  server.prependListener('request', resolve);
  server.prependListener('upgrade', resolve);
}

/** The client of a request of a server passed to `resolveClients`. */
export function clientOf(req: IncomingMessage): Client {
  const client = seen.get(req);
  if (!client) throw new Error('the request came through a server whose clients are not resolved');
  return client;
}
