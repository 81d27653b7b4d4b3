import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ERRORS_DOC, withErrorTable } from '../core/error-docs';
import { logger } from '../core/logger';

const target = path.resolve(__dirname, '..', '..', ERRORS_DOC);
writeFileSync(target, withErrorTable(readFileSync(target, 'utf8')));
logger.info({ file: target }, 'error codes written');
