import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { invalid, type DomainError } from '../core/errors';

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

/**
 * Caps on the sockets and subscriptions of this instance, in total and per client address (the
 * peer's: behind a proxy, the proxy's), so that one address cannot hold every socket and the
 * memory of thousands of subscriptions. The per-socket cap stays with the socket (WS_MAX_SUBSCRIPTIONS).
 */
export class WsAdmission {
  private readonly byAddress = new Map<string, Set<WebSocket>>();
  private readonly operations = new Map<WebSocket, Operations>();
  private sockets = 0;

  constructor(private readonly limits: AdmissionLimits) {}

  /** Takes a new socket, or closes it with 1013 and the reason `too_many_connections`. */
  connect(socket: WebSocket, request: IncomingMessage): void {
    const address = request.socket.remoteAddress ?? '';
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
      if (!mine.size) this.byAddress.delete(address);
    });
  }

  /** Remembers the operations of an admitted socket, once graphql-ws has its context. */
  track(socket: WebSocket, operations: Operations): void {
    if (socket.readyState === socket.OPEN) this.operations.set(socket, operations);
  }

  /** Why a new subscription of the socket (already counted in its operations) is refused, if it is. */
  subscriptionRefusal(socket: WebSocket, request: IncomingMessage): DomainError | null {
    if (count(this.operations.values()) > this.limits.maxSubscriptions) {
      return invalid('too_many_subscriptions', `the service runs at most ${this.limits.maxSubscriptions} subscriptions at once; try again later`);
    }
    const mine = this.byAddress.get(request.socket.remoteAddress ?? '') ?? new Set([socket]);
    const operations = [...mine].map((s) => this.operations.get(s)).filter((o): o is Operations => !!o);
    if (count(operations) > this.limits.maxSubscriptionsPerAddress) {
      return invalid('too_many_subscriptions', `the sockets of one address run at most ${this.limits.maxSubscriptionsPerAddress} subscriptions at once`);
    }
    return null;
  }
}
