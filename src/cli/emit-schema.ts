import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { logger } from '../core/logger';
import { buildAppSchema, printAppSchema, SCHEMA_FILE } from '../graphql/schema';

const target = path.resolve(__dirname, '..', '..', SCHEMA_FILE);
writeFileSync(target, printAppSchema(buildAppSchema()));
logger.info({ file: target }, 'schema emitted');
