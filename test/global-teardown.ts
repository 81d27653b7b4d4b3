import { dropRunDatabases } from './helpers/db';

export default async function globalTeardown(): Promise<void> {
  await dropRunDatabases();
}
