import { loadConfig } from './src/config';
import { ormOptions } from './src/db/orm';

// For tools that read a MikroORM config file; the service itself builds the same options.
const { DATABASE_URL } = loadConfig();
export default ormOptions(DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
