import type { Keypair } from '@stellar/stellar-sdk';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { bearerFor } from '../blacklist/support';
import type { TestApp } from '../helpers/app';
import { signHeaders } from '../helpers/client';
import { createLot, ENG_LOT } from '../helpers/lots';

export interface Closed {
  code: number;
  reason: string;
}

/** One subscription's deliveries, as the client received them. */
export class Feed<T> {
  events: T[] = [];
  errors: any[] = [];
  completed = false;
  /** A probe (id 0) arrived. */
  probed = false;
  /** Ends the subscription from the client side. */
  stop: () => void = () => undefined;

  /** Waits until `n` events arrived (or fails after `ms`). */
  async take(n: number, ms = 5000): Promise<T[]> {
    await until(() => this.events.length >= n || this.errors.length > 0, ms, () => `${this.events.length} of ${n} events`);
    if (this.errors.length) throw new Error(`subscription failed: ${JSON.stringify(this.errors)}`);
    return this.events.slice(0, n);
  }

  async failure(ms = 5000): Promise<any> {
    await until(() => this.errors.length > 0, ms, () => 'an error');
    return this.errors[0];
  }
}

export interface Socket {
  client: Client;
  /** Resolves when the server closed the socket. */
  closed: Promise<Closed>;
  connected: Promise<void>;
  subscribe<T = any>(query: string, variables?: Record<string, unknown>): Feed<T>;
  dispose(): Promise<void>;
}

/** A WebSocket whose upgrade request is signed by `keypair`. */
function signedWebSocket(keypair: Keypair) {
  return class extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      const headers: Record<string, string> = {};
      signHeaders('GET', '/graphql', headers, null, { keypair });
      super(address, protocols, { headers });
    }
  };
}

/** A graphql-ws client: anonymous, with a bearer token, or signed by a keypair at connect. */
export function connect(t: TestApp, as?: string | Keypair): Socket {
  const token = typeof as === 'string' ? as : undefined;
  let onClosed: (c: Closed) => void = () => undefined;
  let onConnected: () => void = () => undefined;
  const closed = new Promise<Closed>((resolve) => (onClosed = resolve));
  const connected = new Promise<void>((resolve) => (onConnected = resolve));
  const client = createClient({
    url: `ws://127.0.0.1:${t.port}/graphql`,
    webSocketImpl: as && typeof as !== 'string' ? signedWebSocket(as) : WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : undefined,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
    on: {
      connected: () => onConnected(),
      closed: (e) => onClosed({ code: (e as { code: number }).code, reason: String((e as { reason: unknown }).reason) }),
    },
  });
  return {
    client,
    closed,
    connected,
    subscribe<T>(query: string, variables?: Record<string, unknown>) {
      const feed = new Feed<T>();
      feed.stop = client.subscribe<Record<string, T>>(
        { query, variables },
        {
          next: (r) => {
            if (r.errors) feed.errors.push(...r.errors);
            else {
              const event = Object.values(r.data ?? {})[0] as T;
              // Probes (id 0, see `ready`) are no real bid or notification.
              if ((event as { id?: string }).id === '0') feed.probed = true;
              else feed.events.push(event);
            }
          },
          error: (e) => feed.errors.push(...(Array.isArray(e) ? e : [e])),
          complete: () => (feed.completed = true),
        },
      );
      return feed;
    },
    dispose: () => client.dispose() as Promise<void>,
  };
}

/** The sockets a test opens, disposed by an `afterEach` this registers; call at the top of a test file. */
export function socketsClosedAfterEach() {
  const sockets: Socket[] = [];
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.dispose()));
  });
  /** Connects to `t` (see `connect`) without waiting for the handshake. */
  const start = (t: TestApp, as?: string | Keypair): Socket => {
    const socket = connect(t, as);
    sockets.push(socket);
    return socket;
  };
  /** Connects and waits for the handshake. */
  const open = async (t: TestApp, as?: string | Keypair): Promise<Socket> => {
    const socket = start(t, as);
    await socket.connected;
    return socket;
  };
  /** Opens as the account, with a fresh bearer token, or anonymously without one. */
  const openFor = async (t: TestApp, accountId?: string): Promise<Socket> => open(t, accountId ? await bearerFor(t, accountId) : undefined);
  return { start, open, openFor };
}

/**
 * Waits until the server listens for the feed: `probe` publishes a harmless event on the
 * LiveBus until the feed receives one; the probes received are then forgotten.
 */
export async function ready(feed: Feed<unknown>, probe: () => void): Promise<void> {
  const seen = () => feed.events.length > 0 || feed.probed;
  await until(
    () => {
      if (seen() || feed.errors.length) return true;
      probe();
      return false;
    },
    5000,
    () => 'the subscription to become active',
  );
  if (feed.errors.length) throw new Error(`subscription failed: ${JSON.stringify(feed.errors)}`);
  // Probes sent before the first answer may still be on their way (a loaded machine delays them
  // past any fixed wait): forget what came until nothing more has come for a while.
  for (let quietFor = 0, count = -1, waited = 0; quietFor < QUIET_MS && waited < 5000; waited += 50) {
    quietFor = feed.events.length === count ? quietFor + 50 : 0;
    count = feed.events.length;
    await new Promise((r) => setTimeout(r, 50));
  }
  feed.events = [];
}

/** How long no probe may have arrived before `ready` counts them all in. */
const QUIET_MS = 250;

export async function until(test: () => boolean | Promise<boolean>, ms: number, what: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A fresh auction (start 1000, steps 50..500) whose given accounts are pending participants. */
export async function auction(t: TestApp, staff: Keypair, accountIds: string[]): Promise<string> {
  const lot = await createLot(t, staff, ENG_LOT);
  const em = t.orm.em.fork();
  for (const accountId of accountIds) em.create(Participant, { lotId: lot.id, accountId, state: ParticipantState.Pending });
  await em.flush();
  return lot.id;
}

export async function bid(t: TestApp, who: Keypair, lotId: string, attributes: Record<string, unknown>): Promise<void> {
  const res = await t.client.as(who).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes } });
  if (res.status !== 204) throw new Error(`bid failed: ${res.status} ${res.text}`);
}

export const BID_PLACED = `subscription ($lotId: ID!, $after: ID) {
  bidPlaced(lotId: $lotId, after: $after) { id lotId amount highestBid bidderId placedByProxy createdAt }
}`;
export const LOT_UPDATED = `subscription ($lotId: ID!) {
  lotUpdated(lotId: $lotId) { id lotState lotStateStr highestBid winnerId startTime endTime }
}`;
export const NOTIFICATION_ADDED = 'subscription { notificationAdded { id type typeStr meta createdAt } }';

/** A probe bid event: not a real bid, id 0, used only to learn that a bidPlaced feed is live. */
export const probeBid = (lotId: string) => ({ id: '0', lotId, amount: '0.00', highestBid: '0.00', bidderId: 'probe', placedByProxy: false, createdAt: new Date() });
