import type { EntityClass, MigrationObject } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Keypair } from '@stellar/stellar-sdk';
import type { JwtService } from './auth/jwt';
import type { Config } from './config';
import type { Logger } from './core/logger';
import type { AppRouter } from './rest/router';
import type { Services } from './services';

/** What every area's services may be built from, beside the other areas' services. */
export interface Infrastructure {
  config: Config;
  master: Keypair;
  /** The transparency log's key, loaded once: the log signs with it and anchors on its account. */
  logKey: Keypair;
  jwt: JwtService;
  log: Logger;
}

/** Builds one service from the others (the registry builds each once, on first use, in any order). */
export type ServiceFactories = { [K in keyof Services]?: (services: Services, infra: Infrastructure) => Services[K] };

// An area's background work, as its module hands it to the job queue (src/jobs), which runs it.
/** One piece of periodic housekeeping, run with the others every CLEANUP_INTERVAL_SECONDS; may answer how many rows it changed (for the log). */
export interface Cleaner {
  kind: 'cleaner';
  name: string;
  run(em: EntityManager): Promise<number | void>;
}

/** Work of its own queue that repeats every `everySeconds` on one instance of all. */
export interface Recurring {
  kind: 'recurring';
  queue: string;
  everySeconds: number;
  firstAfterSeconds: number;
  run(orm: MikroORM, log: Logger): Promise<void>;
}

export type Job = Cleaner | Recurring;

/**
 * One area of the domain as the app sees it: its tables, its schema history, its services, its two
 * edges and its background work. An area's folder holds its `<area>.module.ts`; `src/modules/index.ts`
 * lists them, so that a new area is one folder and one line.
 */
export interface AppModule {
  name: string;
  entities?: EntityClass<unknown>[];
  migrations?: MigrationObject[];
  services?: ServiceFactories;
  routes?: (router: AppRouter, config: Config) => void;
  // type-graphql takes resolver classes as plain constructors.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers?: Function[];
  jobs?: (services: Services, config: Config) => Job[];
}
