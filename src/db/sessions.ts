import { connect, Socket } from 'node:net';
import type { Client, ClientConfig } from 'pg';

/** How long a cancel may take to reach the server before its socket is dropped: a server out of reach must not pile them up. */
const CANCEL_MS = 5000;

/**
 * Idle time before TCP asks the server of a session let go of whether it still holds the other
 * end: a host that restarted answers the first probe with a reset, and the session's slot is free.
 */
const KEEPALIVE_MS = 10_000;

/**
 * The sessions a pool may have on the server at once, counted from the connect until the session's
 * socket closed, not until the pool let go of it: a server session whose statement is still running
 * or waiting for a lock outlives the client that gave up on it, and a pool that opened a replacement
 * meanwhile would hold more sessions than its size (up to max_connections, for every client of the server).
 */
export class SessionSlots {
  private taken = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /** Whether a slot was had within `ms` (0: however long it takes). */
  take(ms: number): Promise<boolean> {
    if (this.taken < this.max) {
      this.taken++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const grant = () => {
        clearTimeout(timer);
        resolve(true);
      };
      if (ms > 0)
        timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(grant), 1);
          resolve(false);
        }, ms);
      this.waiting.push(grant);
    });
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.taken--;
  }
}

/** node-postgres' fields of a connected client that its types leave out. */
interface Connected {
  readyForQuery: boolean;
  processID: number | null;
  secretKey: number | null;
}

const timedOut = (why: string) => Object.assign(new Error(`timeout exceeded when trying to connect: ${why}`), { code: 'ETIMEDOUT' });

/** A client of `sessionClient`. */
export interface Session {
  /** The socket it was given. */
  readonly socket: Socket;
  /**
   * Ends the client as `end()` does; with `cancel` false, a statement without its answer yet is
   * let run to its end (a commit, whose fate the server alone then decides).
   */
  giveUp(cancel: boolean): void;
}

/**
 * Asks the server to cancel the statement of session `processID` (PostgreSQL's CancelRequest, on a
 * connection that takes no session slot). Nothing waits for it, and it is dropped after CANCEL_MS.
 */
function cancelStatement(host: string, port: number, processID: number, secretKey: number): void {
  const request = Buffer.alloc(16);
  request.writeInt32BE(16, 0);
  request.writeInt32BE(80877102, 4);
  request.writeInt32BE(processID, 8);
  request.writeInt32BE(secretKey, 12);
  const socket = host.startsWith('/') ? connect(`${host}/.s.PGSQL.${port}`) : connect(port, host);
  const timer = setTimeout(() => socket.destroy(), CANCEL_MS).unref();
  socket.on('error', () => undefined).on('close', () => clearTimeout(timer));
  socket.unref();
  socket.end(request);
}

/**
 * node-postgres' `Client` whose connections take a slot of `slots` until their socket closes, over
 * a socket of our making (its public `stream` option; the client's own field for it is private),
 * the configured `stream`'s, a plain one when none is configured.
 *
 * Ending a client whose statement has no answer yet does not drop its socket as node-postgres
 * does: the server would go on running the statement, or waiting for its lock, until its own
 * timeout, a session no pool counts. The statement is cancelled instead, and the session ended
 * once the server answered; the end itself resolves at once.
 */
export function sessionClient(Base: typeof Client, slots: SessionSlots): typeof Client {
  return class SessionClient extends Base implements Session {
    readonly socket: Socket;
    /** The bound of the connect (`connectionTimeoutMillis`; 0: none), its wait for a slot included. */
    private readonly connectMs: number;
    private connected = false;
    private letGo = false;

    constructor(config: ClientConfig) {
      const socket = (config.stream?.() as Socket | undefined) ?? new Socket();
      // Copied with its descriptors: knex hides the password as a property no spread copies.
      super(Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(config), stream: { value: () => socket, enumerable: true } }));
      this.socket = socket;
      this.connectMs = config.connectionTimeoutMillis ?? 0;
    }

    override connect(): Promise<Client>;
    override connect(callback: (err: Error | null, client?: Client) => void): void;
    override connect(callback?: (err: Error | null, client?: Client) => void): Promise<Client> | void {
      const connected = this.open();
      if (!callback) return connected;
      connected.then((client) => callback(null, client), callback);
    }

    override end(): Promise<void>;
    override end(callback: (err?: Error) => void): void;
    override end(callback?: (err?: Error) => void): Promise<void> | void {
      // A connect still waiting for its slot would otherwise open a session after its end, kept by no one.
      if (!this.connected) this.socket.destroy();
      if (!this.letGo && !this.waiting()) return callback ? super.end(callback) : super.end();
      this.giveUp(true);
      if (!callback) return Promise.resolve();
      callback();
    }

    giveUp(cancel: boolean): void {
      if (this.letGo) return;
      if (this.waiting()) this.linger(cancel);
      else void this.end().catch(() => undefined);
    }

    /** Whether the server has a statement of this session without its answer yet. */
    private waiting(): boolean {
      return this.connected && !(this as unknown as Connected).readyForQuery && !this.socket.destroyed;
    }

    private async open(): Promise<Client> {
      const deadline = Date.now() + this.connectMs;
      if (!(await slots.take(this.connectMs))) {
        this.socket.destroy();
        throw timedOut('the server still holds every session of this pool');
      }
      if (this.socket.destroyed) {
        slots.give();
        throw Object.assign(new Error('Connection terminated before it was made'), { code: 'ECONNRESET' });
      }
      this.socket.once('close', () => slots.give());
      // node-postgres' own timer would give the connect its whole bound again after the wait for a slot.
      const timer = this.connectMs > 0 ? setTimeout(() => this.socket.destroy(timedOut('no answer')), Math.max(1, deadline - Date.now())) : undefined;
      try {
        await super.connect();
      } catch (err) {
        this.socket.destroy();
        throw err;
      } finally {
        clearTimeout(timer);
      }
      this.connected = true;
      return this;
    }

    private linger(cancel: boolean): void {
      this.letGo = true;
      // What the session still says (its statement's cancellation, the server going) concerns no one now.
      this.on('error', () => undefined);
      const { processID, secretKey } = this as unknown as Connected;
      if (cancel && processID !== null && secretKey !== null) cancelStatement(this.host, this.port, processID, secretKey);
      this.socket.setKeepAlive(true, KEEPALIVE_MS);
      // A session waiting for a server that does not answer must not keep a stopping process alive.
      this.socket.unref();
      this.once('drain', () => void super.end().catch(() => undefined));
    }
  };
}
