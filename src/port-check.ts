import { createServer, type Server } from 'node:net';
import { StartRefusal } from './start-refusal';

/** The service cannot listen where it is told to. */
export class PortError extends StartRefusal {}

const REASONS: Record<string, (port: number, host: string) => string> = {
  EADDRINUSE: (port, host) => `PORT ${port} on ${host} is in use by another process: stop it, or set PORT to a free port`,
  EACCES: (port, host) => `PORT ${port} on ${host} needs privileges this process lacks: set PORT to 1024 or above`,
  EADDRNOTAVAIL: (port, host) => `HOST ${host} is no address of this machine (PORT ${port}): set HOST to one of its addresses, or 0.0.0.0`,
  ENOTFOUND: (port, host) => `HOST ${host} is no known host name (PORT ${port}): set HOST to an address of this machine, or 0.0.0.0`,
};

/** The one-line reason a listen on `host:port` failed. */
export function portError(err: unknown, port: number, host: string): PortError {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const told = REASONS[code]?.(port, host) ?? `cannot listen on PORT ${port} on ${host} (${code || (err as Error).message})`;
  return new PortError(told);
}

export interface HeldPort {
  /** Frees the port, just before the service listens on it. */
  release(): Promise<void>;
}

/**
 * Binds `host:port` and keeps it until released: a port in use is told before the database has
 * been started and migrated, and while they run no process can take the port, not even the
 * embedded PostgreSQL choosing a free port of its own.
 */
export function holdPort(port: number, host: string): Promise<HeldPort> {
  return new Promise((resolve, reject) => {
    // A client that connects before the service listens is cut off: it would otherwise keep the close waiting.
    const probe: Server = createServer((socket) => socket.destroy());
    probe.once('error', (err) => reject(portError(err, port, host)));
    probe.listen({ port, host }, () => {
      probe.unref();
      resolve({ release: () => new Promise<void>((done) => probe.close(() => done())) });
    });
  });
}
