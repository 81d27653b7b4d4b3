import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** Connections the embedded server accepts at once; a pool on it must stay within. */
export const EMBEDDED_MAX_CONNECTIONS = 16;

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL (PGlite) inside this process, served over the wire protocol on a free
 * loopback port so that the application reaches it through the same driver as a real server.
 * PGlite runs one transaction at a time and queues the others.
 */
export async function startEmbeddedPostgres(dataDir: string | null): Promise<EmbeddedPostgres> {
  let location = 'memory://';
  if (dataDir) {
    location = path.resolve(dataDir, 'pgdata');
    mkdirSync(location, { recursive: true });
  }
  const db = await PGlite.create(location);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: EMBEDDED_MAX_CONNECTIONS });
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
