import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { logger } from '../core/logger';
import { RESOURCE_ATTRIBUTES_FILE, resourceAttributeSchemas } from '../rest/resource-attributes';

const root = path.resolve(__dirname, '..', '..');
const target = path.join(root, RESOURCE_ATTRIBUTES_FILE);
writeFileSync(target, `${JSON.stringify(resourceAttributeSchemas(root), null, 2)}\n`);
logger.info({ file: target }, 'resource attribute schemas emitted');
