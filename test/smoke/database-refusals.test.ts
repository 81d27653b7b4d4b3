import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.host';
import { launch, reapAll } from './launch';

/**
 * A DATABASE_URL the service cannot use ends the start in one line naming DATABASE_URL without
 * its password, with no stack trace, and before a master key is generated for it.
 */
afterEach(() => reapAll());

const server = () => new URL(process.env.TEST_DATABASE_URL as string);

const start = async (databaseUrl: string) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'db-refusal-'));
  const service = launch(process.execPath, ['dist/main.js'], dataDir, await freePort(), { DATABASE_URL: databaseUrl });
  const code = await service.exited;
  return { code, output: service.output(), seedWritten: existsSync(path.join(dataDir, 'master.seed')) };
};

describe('a start refused for its database', () => {
  it('names a server that takes no connections, without the password', async () => {
    const port = await freePort();
    const result = await start(`postgres://nobody:hunter2secret@127.0.0.1:${port}/auction`);
    expect(result).toEqual({
      code: 1,
      output: `Cannot start: DATABASE_URL postgres://nobody@127.0.0.1:${port}/auction: nothing accepts connections on 127.0.0.1:${port} (ECONNREFUSED): start PostgreSQL there, or fix the host and port\n`,
      seedWritten: false,
    });
  }, 60_000);

  it('names a role the server does not know, and hides its password and query', async () => {
    const url = server();
    url.username = 'no_such_role_refusal';
    url.password = 'hunter2secret';
    url.search = '?password=hunter2secret';
    const { code, output, seedWritten } = await start(url.toString());
    url.password = '';
    url.search = '';
    expect({ code, seedWritten }).toEqual({ code: 1, seedWritten: false });
    expect(output).toBe(`Cannot start: DATABASE_URL ${url.toString()}: PostgreSQL refused the login (role "no_such_role_refusal" does not exist): fix the user or the password\n`);
    expect(output).not.toContain('hunter2secret');
  }, 60_000);
});
