import { readFileSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres, EmbeddedPostgresError, type EmbeddedPostgres } from '../../src/db/embedded';
import { quietPort } from '../../src/db/embedded.host';

/**
 * The port of the embedded database (CI of 29 November: a start in the suite found the port it
 * had just checked bound by someone else, "could not bind IPv4 address: Address already in use",
 * and the service exited). Its port also outlives a crash: the restart binds the same one.
 */
let held: Server | undefined;
let pg: EmbeddedPostgres | undefined;

afterEach(async () => {
  await pg?.stop();
  pg = undefined;
  await new Promise((resolve) => (held ? held.close(resolve) : resolve(undefined)));
  held = undefined;
});

/** A port bound by another process's listener, as a port checked free can be a moment later. */
async function holdPort(): Promise<number> {
  // Connections are dropped at once: closing the listener then leaves nothing open.
  held = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => (held as Server).listen(0, '127.0.0.1', resolve));
  return (held.address() as { port: number }).port;
}

async function serves(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ v: string }>('select 1::text as v')).rows[0].v;
  } finally {
    await client.end();
  }
}

describe('the embedded database port', () => {
  it('is chosen outside the range the system gives outgoing connections', async () => {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    const ports = await Promise.all(Array.from({ length: 20 }, () => quietPort()));
    expect(ports.filter((p) => p >= low || p < 1024)).toEqual([]);
  });

  it('is chosen again when the one chosen is bound before the server binds it', async () => {
    const taken = await holdPort();
    const offered: number[] = [];
    const choosePort = async () => {
      const port = offered.length === 0 ? taken : await quietPort();
      offered.push(port);
      return port;
    };
    pg = await startEmbeddedPostgres({ dir: mkdtempSync(path.join(tmpdir(), 'embedded-port-')), choosePort });
    expect(offered).toHaveLength(2);
    expect(pg.port).toBe(offered[1]);
    expect(await serves(pg.url)).toBe('1');
  }, 60_000);

  it('set by the operator and bound by another, fails at once, naming the bind', async () => {
    const taken = await holdPort();
    const failure = await startEmbeddedPostgres({ dir: mkdtempSync(path.join(tmpdir(), 'embedded-port-')), port: taken }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(EmbeddedPostgresError);
    expect((failure as Error).message).toMatch(/exited \(exit code 1\) at start:\n[^]*could not bind IPv4 address "127\.0\.0\.1": Address already in use/);
  }, 60_000);
});
