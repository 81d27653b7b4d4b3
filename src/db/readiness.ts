import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { poolOpen, reachabilityOf } from './bounded-dialect';
import type { Reachability } from './reachability';
import { sessionClient, SessionSlots } from './sessions';

/**
 * A probe answers within this, so that `/readyz` answers within a second whatever the database
 * does, with room for the request's own way through a busy process (1,002 ms seen at 900).
 */
const PROBE_MS = 700;

/**
 * Whether the database answers a trivial query now. The probe has a connection of its own: behind
 * the pool it would wait for a connection that hung requests hold, and say nothing of the database.
 * One probe runs at a time; callers meanwhile share its answer.
 */
export class Readiness {
  private client: pg.Client | null = null;
  private probing: Promise<boolean> | null = null;
  // A probe given up on is cancelled, and its session counted until it ends: a server that keeps
  // not answering gets no second probe session meanwhile, and the probe answers false.
  private readonly Client = sessionClient(pg.Client, new SessionSlots(1));

  private constructor(
    private readonly settings: pg.ClientConfig,
    private readonly reachability: Reachability,
    private readonly poolOpen: () => boolean,
  ) {}

  /** A probe of the database behind `orm`'s pool. */
  static of(orm: MikroORM): Readiness {
    const connection = orm.em.getConnection();
    // The service's pool takes its password from the URL: always a string.
    const { host, port, user, password, database } = connection.getConnectionOptions();
    const settings = { host, port, user, password: password as string, database, connectionTimeoutMillis: PROBE_MS, application_name: 'auction-readiness' };
    return new Readiness(settings, reachabilityOf(orm), () => poolOpen(orm));
  }

  ready(): Promise<boolean> {
    // A pool that was closed serves no request however well the database answers.
    if (!this.poolOpen()) return Promise.resolve(false);
    this.probing ??= this.probe().finally(() => (this.probing = null));
    return this.probing;
  }

  close(): void {
    const client = this.client;
    this.client = null;
    // A probe waiting for its answer is cancelled (src/db/sessions.ts); an idle one says goodbye. Neither is waited for.
    client?.end().catch(() => undefined);
  }

  private async probe(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`the database did not answer within ${PROBE_MS} ms`), { code: 'ETIMEDOUT' })), PROBE_MS);
    });
    try {
      await Promise.race([this.answer(), late]);
      this.reachability.answered();
      return true;
    } catch (err) {
      this.reachability.failed(err);
      this.close();
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private async answer(): Promise<void> {
    if (!this.client) {
      const client = new this.Client(this.settings);
      // A probe's failure is its answer; the socket's own error events say nothing more.
      client.on('error', () => undefined);
      this.client = client;
      await client.connect();
    }
    await this.client.query('select 1');
  }
}
