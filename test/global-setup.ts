import 'reflect-metadata';
import { ensureTemplate } from './helpers/db';

export default async function globalSetup(): Promise<void> {
  await ensureTemplate();
  // MikroORM keeps entity metadata on globalThis; with one test file jest runs it in this same
  // process, where metadata from this realm would break discovery inside the test's realm.
  delete (globalThis as Record<string, unknown>)['mikro-orm-metadata'];
}
