import 'reflect-metadata';
import { dropStaleDatabases, ensureTemplate } from './helpers/db';

export default async function globalSetup(): Promise<void> {
  // The workers name their databases after this process (test/helpers/db.ts).
  process.env.TEST_RUN_PID = String(process.pid);
  await Promise.all([ensureTemplate(), dropStaleDatabases()]);
  // MikroORM keeps entity metadata on globalThis; with one test file jest runs it in this same
  // process, where metadata from this realm would break discovery inside the test's realm.
  delete (globalThis as Record<string, unknown>)['mikro-orm-metadata'];
}
