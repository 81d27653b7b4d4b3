import 'reflect-metadata';
import { logger } from '../src/core/logger';

logger.level = process.env.TEST_LOG_LEVEL ?? 'silent';
