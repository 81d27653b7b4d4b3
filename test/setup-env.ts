import 'reflect-metadata';
import { logger } from '../src/core/logger';

logger.level = process.env.TEST_LOG_LEVEL ?? 'silent';
// The service under test runs as `npm start` runs it (src/process-defaults.ts), not in jest's `test`:
// graphql-js, loaded after this, then checks each of its type tests once, as in production.
process.env.NODE_ENV = 'production';
// The AWS SDK warns on stderr, once per S3 client's module, that its releases of 2027 will need
// Node.js 22; the service supports 20.19 (package.json engines), and the tests' output is jest's.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
