import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { clientOf } from '../core/client-address';
import { invalid, type DomainError } from '../core/errors';
import { addressGroup } from '../modules/limits';

export interface AdmissionLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  maxSubscriptions: number;
  maxSubscriptionsPerAddress: number;
}

/** Close code of a socket refused at connect because the service or its address has too many (RFC 6455: try again later). */
export const CLOSE_TOO_MANY = 1013;

/** What graphql-ws keeps per socket: its running operations by id (emptied when the socket closes). */
interface Operations {
  subscriptions: Record<string, unknown>;
}

const count = (sockets: Iterable<Operations>) => {
  let n = 0;
  for (const s of sockets) n += Object.keys(s.subscriptions).length;
  return n;
};

/** A count's upper bound after one more subscribe: the exact count once the bound would pass `cap`. */
const boundAfterSubscribe = (bound: number, cap: number, exact: () => number) => (bound + 1 > cap ? exact() : bound + 1);

/**
 * Caps on the sockets and subscriptions of this instance, in total and per client address (behind
 * trusted proxies, the address they forwarded; an IPv6 /64 counts as one), so that one address
 * cannot hold every socket and the memory of thousands of subscriptions. The per-socket cap
 * stays with the socket (WS_MAX_SUBSCRIPTIONS).
 *
 * graphql-ws ends operations on several paths, so the running ones are counted from its records,
 * not kept as a tally. Counting every socket at each subscribe made 5,000 subscribers cost 12.5
 * million steps (a sixth of the fan-out bench's CPU): the counts are upper bounds instead, one
 * more per subscribe and never less for an end, and are counted exactly only when a bound passes
 * its cap, so that nothing is refused on a bound alone.
 */
export class WsAdmission {
  private readonly byAddress = new Map<string, Set<WebSocket>>();
  private readonly operations = new Map<WebSocket, Operations>();
  private sockets = 0;
  private total = 0;
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly limits: AdmissionLimits) {}

  /** Takes a new socket, or closes it with 1013 and the reason `too_many_connections`. */
  connect(socket: WebSocket, request: IncomingMessage): void {
    const address = addressGroup(clientOf(request).address);
    const mine = this.byAddress.get(address) ?? new Set<WebSocket>();
    if (this.sockets >= this.limits.maxConnections || mine.size >= this.limits.maxConnectionsPerAddress) {
      socket.close(CLOSE_TOO_MANY, 'too_many_connections');
      return;
    }
    this.sockets++;
    mine.add(socket);
    this.byAddress.set(address, mine);
    socket.once('close', () => {
      this.sockets--;
      mine.delete(socket);
      this.operations.delete(socket);
      if (!mine.size) {
        this.byAddress.delete(address);
        this.perAddress.delete(address);
      }
    });
  }

  /** Remembers the operations of an admitted socket, once graphql-ws has its context. */
  track(socket: WebSocket, operations: Operations): void {
    if (socket.readyState === socket.OPEN) this.operations.set(socket, operations);
  }

  /** Why a new subscription of the socket (already counted in its operations) is refused, if it is. */
  subscriptionRefusal(socket: WebSocket, request: IncomingMessage): DomainError | null {
    this.total = boundAfterSubscribe(this.total, this.limits.maxSubscriptions, () => count(this.operations.values()));
    if (this.total > this.limits.maxSubscriptions) {
      return invalid('too_many_subscriptions', `the service runs at most ${this.limits.maxSubscriptions} subscriptions at once; try again later`);
    }
    const address = addressGroup(clientOf(request).address);
    const sockets = this.byAddress.get(address);
    const mine = boundAfterSubscribe(this.perAddress.get(address) ?? 0, this.limits.maxSubscriptionsPerAddress, () =>
      count([...(sockets ?? [socket])].map((s) => this.operations.get(s)).filter((o): o is Operations => !!o)),
    );
    if (sockets) this.perAddress.set(address, mine);
    if (mine > this.limits.maxSubscriptionsPerAddress) {
      return invalid('too_many_subscriptions', `the sockets of one address run at most ${this.limits.maxSubscriptionsPerAddress} subscriptions at once`);
    }
    return null;
  }
}
