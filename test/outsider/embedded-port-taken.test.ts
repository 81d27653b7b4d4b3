import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/db/embedded.host';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded';
import { launch, reapAll, sleep, type Launched } from '../smoke/launch';

/**
 * EMBEDDED_DB_PORT set to a port another PostgreSQL already serves (a developer's own server on
 * 5432, with local connections trusted as many are set up). The embedded server cannot bind and
 * exits, but the start polls the URL until something answers, and that other server does: the
 * service says "embedded PostgreSQL ready", migrates its schema into the other server's
 * `postgres` database and serves from it; its supervisor then finds its own server gone and
 * "starts it again" and finds it "back" in a loop. A start should refuse, as a taken PORT is
 * refused, and leave the other server alone.
 */
let foreign: EmbeddedPostgres | undefined;
let service: Launched | undefined;

afterEach(async () => {
  reapAll();
  await foreign?.stop();
});

async function publicTables(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>("select count(*)::int as n from pg_tables where schemaname = 'public'")).rows[0].n;
  } finally {
    await client.end();
  }
}

describe('a start whose EMBEDDED_DB_PORT another PostgreSQL holds', () => {
  it('refuses in one line naming EMBEDDED_DB_PORT, and writes nothing into the other server', async () => {
    // The other server: one of this test's own, taking local connections without a password.
    foreign = await startEmbeddedPostgres({ dir: mkdtempSync(path.join(tmpdir(), 'foreign-pg-')) });
    // pg_hba.conf is read top down: a trust line first lets in any local connection.
    const hba = path.join(foreign.dataDir, 'pg_hba.conf');
    writeFileSync(hba, `host all all 127.0.0.1/32 trust\n${readFileSync(hba, 'utf8')}`);
    const admin = new Client({ connectionString: foreign.url });
    await admin.connect();
    await admin.query('select pg_reload_conf()');
    await admin.end();
    const trusted = `postgres://postgres@127.0.0.1:${foreign.port}/postgres`;
    expect(await publicTables(trusted)).toBe(0);

    const dataDir = mkdtempSync(path.join(tmpdir(), 'embedded-port-taken-'));
    service = launch(process.execPath, ['dist/main.js'], dataDir, await freePort(), { EMBEDDED_DB_PORT: String(foreign.port), LOG_LEVEL: 'info' });
    const outcome = await Promise.race([service.exited, sleep(20_000).then(() => 'still running')]);
    const serving = await service.client.get('/healthz').then((r) => r.status, () => 0);

    // Nothing of the service in the other server: no schema migrated, no job queue.
    expect(await publicTables(trusted)).toBe(0);
    expect({ outcome, serving }).toEqual({ outcome: 1, serving: 0 });
    expect(service.output()).toMatch(/EMBEDDED_DB_PORT/);
    expect(service.output()).not.toMatch(/starting it again/);
  }, 60_000);
});
