import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.host';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { launch, reapAll, sleep, untilServing } from './launch';

/** Clients that send half a request and hang up: answered, and logged in JSON lines only, never with a stack. */
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  reapAll();
  await db.drop();
});

/** Sends `text`, ends the socket, and gives what came back once the server closed it. */
const hangUp = (port: number, text: string) =>
  new Promise<string>((resolve) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
  });

const halfBody = (target: string) => `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"q`;

describe('a client that breaks its request off', () => {
  it('leaves only JSON lines in the log, none with a stack, and the service serves on', async () => {
    const port = await freePort();
    const service = launch(process.execPath, ['dist/main.js'], mkdtempSync(path.join(tmpdir(), 'client-errors-')), port, { DATABASE_URL: db.url, LOG_LEVEL: 'debug' });
    await untilServing(service, 120_000);

    for (const target of ['/graphql', '/lots', '/lots/1/bids']) await hangUp(port, halfBody(target));
    await hangUp(port, 'GET /lots HTTP/1.1\r\nHost: x\r\n');
    expect(await hangUp(port, 'HELLO\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    await sleep(1000);

    const lines = service.output().split('\n').filter(Boolean);
    const notJson = lines.filter((l) => {
      try {
        return typeof JSON.parse(l) !== 'object';
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    expect(service.output()).not.toContain('Parse Error');
    expect(service.output()).not.toMatch(/"stack"/);
    expect((await service.client.get('/healthz')).status).toBe(200);
  }, 150_000);
});
