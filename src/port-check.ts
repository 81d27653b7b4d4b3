import { createServer } from 'node:net';
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

/**
 * Binds `host:port` for a moment, so that a port in use is told before the database has been
 * started and migrated, rather than after.
 */
export function checkPort(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err) => reject(portError(err, port, host)));
    probe.listen({ port, host }, () => probe.close(() => resolve()));
  });
}
