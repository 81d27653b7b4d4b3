import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Keypair } from '@stellar/stellar-sdk';
import { freePort } from '../../src/db/embedded.host';
import type { TestApp } from '../helpers/app';
import { TestClient } from '../helpers/client';
import { ROOT } from '../helpers/process';

/** The service as its own process (dist/main.js, which `npm test` builds first), so that it can be killed. */
export interface ServiceProcess {
  port: number;
  client: TestClient;
  /** SIGKILL: no graceful shutdown, as a crash or a lost host. */
  kill(): Promise<void>;
  /** SIGTERM and its graceful shutdown. */
  stop(): Promise<void>;
  output(): string;
}

export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'service-')), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const stopOnExit = () => child.kill('SIGKILL');
  process.once('exit', stopOnExit);
  const client = new TestClient(`http://127.0.0.1:${port}`);
  const ended = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      process.removeListener('exit', stopOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output}`);
    const ready = await client.get('/readyz').catch(() => null);
    if (ready?.status === 200) break;
    if (Date.now() > deadline) {
      await ended('SIGKILL');
      throw new Error(`the service did not get ready within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, client, kill: () => ended('SIGKILL'), stop: () => ended('SIGTERM'), output: () => output };
}

/** What the factories (test/helpers/factories.ts) use of a TestApp, offered by a process: its client, port and master key. */
export const asTestApp = (p: ServiceProcess, master: Keypair): TestApp =>
  ({ client: p.client, port: p.port, master, baseUrl: `http://127.0.0.1:${p.port}` }) as unknown as TestApp;

/** A line of the service's log: level and message (and code) of a JSON line; anything else (a stack's line) as level 0. */
export interface LogLine {
  level: number;
  msg: string;
  code?: string;
}

/** The service's log from `from` (a length of its output) on, line by line. */
export const logLinesFrom = (p: ServiceProcess, from: number): LogLine[] =>
  p
    .output()
    .slice(from)
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        return { level: 0, msg: line };
      }
    });
