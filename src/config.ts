import { Networks } from '@stellar/stellar-sdk';
import { z } from 'zod';
import { assertTrustRanges, type ProxyTrust } from './core/client-address';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const duration = z
  .string()
  .regex(/^\d+(s|m|h|d)?$/, 'expected a number of seconds, or a number followed by s, m, h or d')
  .transform((v) => {
    const n = Number.parseInt(v, 10);
    const unit = v.replace(/^\d+/, '') || 's';
    return n * { s: 1, m: 60, h: 3600, d: 86400 }[unit as 's' | 'm' | 'h' | 'd'];
  });

/** `off` (or 0), a count of proxy hops, or a comma-separated list of addresses, CIDR ranges and proxy-addr's names. */
const proxyTrust = z
  .string()
  .transform((v, ctx): ProxyTrust => {
    const given = v.trim();
    if (given === 'off' || given === '0') return null;
    if (/^\d+$/.test(given)) return { hops: Number(given) };
    const ranges = given.split(',').map((r) => r.trim());
    try {
      assertTrustRanges(ranges);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `expected off, a number of hops, or addresses and CIDR ranges separated by commas (${(err as Error).message})` });
      return z.NEVER;
    }
    return { ranges };
  });

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_CREATE: bool.default(false),
  DB_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(20),
  EMBEDDED_DB_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  REDIS_URL: z.string().url().optional(),
  REDIS_PREFIX: z.string().max(100).default('auction:'),
  WS_MAX_SUBSCRIPTIONS: z.coerce.number().int().min(1).default(20),
  WS_MAX_PAYLOAD: z.coerce.number().int().min(1024).default(64 * 1024),
  WS_MAX_BUFFERED: z.coerce.number().int().min(1024).default(256 * 1024),
  WS_KEEPALIVE: duration.default(12),
  WS_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(10_000),
  WS_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
  WS_MAX_TOTAL_SUBSCRIPTIONS: z.coerce.number().int().min(1).default(100_000),
  WS_MAX_SUBSCRIPTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(500),
  WS_SUBSCRIPTION_BUDGET_PER_ADDRESS: z.coerce.number().int().min(1).default(20_000),
  WS_SUBSCRIPTION_BUDGET_PER_ACCOUNT: z.coerce.number().int().min(1).default(10_000),
  REPLAY_MAX_BIDS: z.coerce.number().int().min(1).default(500),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(20_000),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(15),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(100).default(5000),
  RATE_LIMIT_WINDOW: duration.refine((v) => v >= 1, 'must be at least 1 second').default(60),
  RATE_LIMIT_WRITES_PER_ADDRESS: z.coerce.number().int().min(0).default(600),
  RATE_LIMIT_WRITES_PER_ACCOUNT: z.coerce.number().int().min(0).default(300),
  RATE_LIMIT_ACCOUNTS_WINDOW: duration.refine((v) => v >= 1, 'must be at least 1 second').default(3600),
  RATE_LIMIT_ACCOUNTS_PER_ADDRESS: z.coerce.number().int().min(0).default(20),
  SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  TRUST_PROXY: proxyTrust.default(null),
  REQUEST_TIMEOUT: duration.refine((v) => v >= 1, 'must be at least 1 second').default(120),
  DB_STATEMENT_TIMEOUT: duration.default(30),
  DB_ANSWER_TIMEOUT: duration.default(5),
  DATA_DIR: z.string().min(1).default('./.data'),
  MASTER_SEED: z
    .string()
    .regex(/^S[A-Z2-7]{55}$/, 'expected a Stellar secret seed (S…, 56 characters)')
    .optional(),
  LOG_SIGNING_SEED: z
    .string()
    .regex(/^S[A-Z2-7]{55}$/, 'expected a Stellar secret seed (S…, 56 characters)')
    .optional(),
  LOG_KEY_FILE: z.string().min(1).optional(),
  LOG_KEY_REPLACES: z.string().regex(/^G[A-Z2-7]{55}$/, 'expected a Stellar public key (G…, 56 characters)').optional(),
  LOG_ORIGIN: z.string().min(1).max(200).regex(/^[^\s+]+$/, 'no spaces nor "+"').default('auction.local/bid-log'),
  /** `off` leaves bids out of the transparency log: the bench's baseline only, refused outside NODE_ENV=bench (loadConfig). */
  TLOG_APPEND: z.enum(['on', 'off']).default('on'),
  CHECKPOINT_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
  ANCHOR_SECONDS: z.coerce.number().int().min(1).max(86400).default(10),
  LOG_WITNESSES: z
    .string()
    .regex(/^\s*([^\s+,]+\+[0-9a-f]{8}\+[A-Za-z0-9+/=]+\s*(,\s*|$))*$/, 'expected comma-separated witness vkeys, name+keyid+key')
    .default(''),
  NETWORK_PASSPHRASE: z.string().min(1).default(Networks.STANDALONE),
  PUBLIC_URL: z.string().url().optional(),
  JWT_TTL: duration.default(3600),
  JWT_KEY_VERSION: z.coerce.number().int().min(1).max(1000).default(1),
  JWT_PREVIOUS_KEY: bool.default(false),
  SIGNATURE_WINDOW: duration.default(300),
  SIGNATURE_LEGACY: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: z.coerce.number().int().positive().default(1024 * 1024),
  /** Lets GET /metrics answer callers other than loopback ones that send it as a bearer token. */
  METRICS_TOKEN: z.string().min(16, 'use at least 16 characters').optional(),
  SMTP_URL: z
    .string()
    .url()
    .refine((v) => /^smtps?:\/\//i.test(v), 'expected an smtp:// or smtps:// URL')
    .optional(),
  SMTP_FROM: z.string().min(1).default('no-reply@localhost'),
  RATES_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//i.test(v), 'expected an http:// or https:// URL')
    .optional(),
  RATES_POLL_SECONDS: z.coerce.number().int().min(1).default(600),
  HORIZON_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//i.test(v), 'expected an http:// or https:// URL')
    .optional(),
  HORIZON_RETRY_SECONDS: z.coerce.number().int().min(1).default(30),
  HORIZON_ANSWER_SECONDS: z.coerce.number().int().min(1).max(600).default(15),
  UPLOAD_LIMIT: z.coerce.number().int().positive().default(20 * 1024 * 1024),
  UPLOADS_AT_ONCE: z.coerce.number().int().min(1).max(1000).default(8),
  UPLOADS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(2),
  DOCUMENT_QUOTA_BYTES: z.coerce.number().int().positive().default(1024 * 1024 * 1024),
  STORAGE_LINK_TTL: duration.refine((v) => v >= 1 && v <= 7 * 86400, 'must be 1 second to 7 days').default(900),
  STORAGE_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  S3_BUCKET: z.string().min(3).optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  JOBS: z.enum(['on', 'off']).default('on'),
  JOBS_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
  JOBS_STOP_SECONDS: z.coerce.number().min(1).max(600).default(10),
  JOBS_EXPIRE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  FINISHING_NOTICE_SECONDS: z.coerce.number().int().min(1).default(10800),
  UNPAID_INVOICE_REMINDER_SECONDS: z.coerce.number().int().min(1).default(43200),
  CLEANUP_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(300),
  SECOND_CHANCE_EXPIRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  SAVED_SEARCHES_PER_ACCOUNT: z.coerce.number().int().min(1).max(10_000).default(50),
});

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (as docker compose passes `${VAR:-}`) means unset.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // A service in use logs every bid it accepts: an operator cannot turn the log off and still hand out receipts.
  if (parsed.data.TLOG_APPEND === 'off' && env.NODE_ENV !== 'bench') {
    throw new ConfigError('Invalid configuration:\n  TLOG_APPEND: off is for the bench alone (NODE_ENV=bench); a service in use logs every bid');
  }
  return parsed.data;
}
