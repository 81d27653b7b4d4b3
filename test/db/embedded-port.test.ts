import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

  // The three below are the outside tester's probes of the first version of this retry.
  it('set by the operator and bound by a process that is no PostgreSQL: one line naming EMBEDDED_DB_PORT', async () => {
    const taken = await holdPort();
    const failure = await startEmbeddedPostgres({ dir: mkdtempSync(path.join(tmpdir(), 'embedded-port-')), port: taken, portSetting: 'EMBEDDED_DB_PORT' }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(EmbeddedPostgresError);
    expect((failure as Error).message).toBe(
      `EMBEDDED_DB_PORT ${taken} is in use on 127.0.0.1 (by another process): set EMBEDDED_DB_PORT to a free port, or leave it unset to take any free one`,
    );
  }, 60_000);

  it('chosen by the service and taken at each of its attempts: one line saying so', async () => {
    const taken = await holdPort();
    let offered = 0;
    const choosePort = async () => (offered++, taken);
    const failure = await startEmbeddedPostgres({ dir: mkdtempSync(path.join(tmpdir(), 'embedded-port-')), choosePort }).catch((err: unknown) => err);
    expect(offered).toBe(5);
    expect((failure as Error).message).toBe(
      `no port could be had for the embedded PostgreSQL: ports ${Array(5).fill(taken).join(', ')} were each taken before its server bound them; set EMBEDDED_DB_PORT to a free port`,
    );
  }, 60_000);

  it('refusing the password of DATA_DIR/pgpass is told as such, not taken for another PostgreSQL, nor tried on other ports', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'embedded-port-'));
    await (await startEmbeddedPostgres({ dir })).stop();
    const passFile = path.join(dir, 'pgpass');
    writeFileSync(passFile, readFileSync(passFile, 'utf8').replace(/:[^:\n]+\n$/, ':not-the-password\n'));
    let offered = 0;
    const choosePort = async () => (offered++, quietPort());
    const failure = await startEmbeddedPostgres({ dir, choosePort }).catch((err: unknown) => err);
    expect(offered).toBe(1);
    expect((failure as Error).message).toBe(
      `the embedded PostgreSQL of ${path.join(dir, 'pg')} refused the password in ${passFile}: put back the one it was created with, or start with another DATA_DIR`,
    );
  }, 60_000);
});
