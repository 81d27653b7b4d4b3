import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.host';
import { launch, reapAll, untilServing } from './launch';

afterEach(reapAll);

const listening = (port: number) =>
  `listening: API http://127.0.0.1:${port}/, GraphQL and GraphiQL http://127.0.0.1:${port}/graphql, REST reference http://127.0.0.1:${port}/docs, live page of a lot http://127.0.0.1:${port}/live/<lot id>`;

describe('the service log', () => {
  it('is one JSON object a line off a terminal, and its start line gives URLs that answer', async () => {
    const port = await freePort();
    const service = launch(process.execPath, ['dist/main.js'], mkdtempSync(path.join(tmpdir(), 'logs-')), port);
    await untilServing(service);
    const lines = service.output().split('\n').filter(Boolean);
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries.map((e) => e.msg)).toContain(listening(port));
    const html = { headers: { accept: 'text/html' } };
    expect((await service.client.get('/')).status).toBe(200);
    expect((await service.client.get('/graphql', html)).text).toContain('graphiql');
    expect((await service.client.get('/docs', html)).status).toBe(200);
  }, 120_000);

  it('is readable lines on a terminal', async () => {
    const port = await freePort();
    // `script` runs the service on a pseudo-terminal, as in a person's shell.
    const service = launch('script', ['-qfec', `${process.execPath} dist/main.js`, '/dev/null'], mkdtempSync(path.join(tmpdir(), 'logs-')), port);
    await untilServing(service);
    // Without the colours' escape sequences.
    const out = service.output().replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
    expect(out).toMatch(new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: ${listening(port).replace(/[.?*+()[\]]/g, '\\$&')}\\r?$`, 'm'));
    expect(out.split('\n').filter((l) => l.startsWith('{'))).toEqual([]);
  }, 120_000);
});
