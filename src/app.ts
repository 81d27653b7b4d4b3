import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { answerClientErrors } from './client-error';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Keypair } from '@stellar/stellar-sdk';
import type { DocumentNode } from 'graphql';
import Koa from 'koa';
import { WebSocketServer } from 'ws';
import { Authenticator } from './auth/authenticate';
import { JwtService } from './auth/jwt';
import type { Config } from './config';
import { clientOf, resolveClients } from './core/client-address';
import type { RequestContext } from './core/context';
import type { Logger } from './core/logger';
import { graphqlContext, type GraphQLContext } from './graphql/context';
import { costLimit } from './graphql/cost';
import { CostGate } from './graphql/cost-gate';
import { cachedIntrospection } from './graphql/introspection';
import { graphqlRateLimit } from './graphql/rate-limit';
import { graphqlErrorFormatter, internalErrorRequestId, persistedQueryStatus } from './graphql/errors';
import { selfRegistrationGuard } from './graphql/guards';
import { graphiqlRoutes, withGraphiql } from './graphql/graphiql';
import { apolloKoa } from './graphql/koa';
import { jitGateway } from './graphql/jit';
import { buildAppSchema } from './graphql/schema';
import { serveGraphqlWs } from './graphql/ws';
import { refreshRates } from './modules/currency';
import { MODULES } from './modules';
import { livePageRoutes } from './live-page/live-page.routes';
import { poolFigures } from './db/orm';
import { Readiness } from './db/readiness';
import { readBody } from './rest/body';
import { errorHandler } from './rest/errors';
import { openApiRoutes } from './rest/openapi.routes';
import { restRateLimit } from './rest/rate-limit';
import { AppRouter } from './rest/router';
import { Metrics } from './metrics/metrics';
import { METRICS_PATH, metricsRoutes } from './metrics/metrics.routes';
import { createServices, type Services } from './services';
import { loadLogKeypair } from './auth/log-key';

export interface AppDeps {
  config: Config;
  orm: MikroORM;
  master: Keypair;
  /** The transparency log's key as the start loaded it; loaded here when not given. */
  logKey?: Keypair;
  log: Logger;
  /** False when the process cannot recover by itself (its embedded database will not start again): /healthz then fails. */
  healthy?: () => boolean;
}

export interface App {
  server: Server;
  services: Services;
  jwt: JwtService;
  /** The REST routes, with the operations the OpenAPI document describes. */
  router: AppRouter;
  listen(port: number, host?: string): Promise<AddressInfo>;
  /** Stops accepting, finishes requests in flight, closes sockets. The database stays open. */
  close(): Promise<void>;
}

const GRAPHQL_PATH = '/graphql';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const ANONYMOUS = { caller: null, provenKey: null, jwt: null };

export async function createApp({ config, orm, master, logKey, log, healthy = () => true }: AppDeps): Promise<App> {
  const jwt = await JwtService.create(master, config.JWT_TTL, { version: config.JWT_KEY_VERSION, acceptPrevious: config.JWT_PREVIOUS_KEY });
  const services = createServices(MODULES, { config, master, logKey: logKey ?? loadLogKeypair(config, master, log), jwt, log });
  await services.platforms.ensureMasterAccount({ em: orm.em.fork() });
  // The first answers use the source's rates; the job queue refreshes them from then on.
  if (config.RATES_URL) await refreshRates(orm, services.currency, config.RATES_URL, log);
  // The job queue (pg-boss and its statements, some 50 modules) is loaded by the instances that work it only.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const jobs = config.JOBS === 'on' ? await (require('./jobs/jobs') as typeof import('./jobs/jobs')).startJobs({ config, orm, services, log }) : null;
  const authenticator = new Authenticator(jwt, {
    windowSeconds: config.SIGNATURE_WINDOW,
    legacy: config.SIGNATURE_LEGACY,
  });

  const metrics = new Metrics();
  services.bids.onRound((outcomes, seconds) => metrics.bidRound(outcomes, seconds));
  if (jobs) metrics.watchQueues(() => jobs.depths());
  metrics.watchPool(poolFigures(orm));

  const web = new Koa();
  const server = createServer({
    // A client must send its whole request (a 20 MB upload included) within REQUEST_TIMEOUT, and
    // its headers within a tenth of it, else 408: a slow sender holds no socket for long.
    requestTimeout: config.REQUEST_TIMEOUT * 1000,
    headersTimeout: Math.max(1000, config.REQUEST_TIMEOUT * 100),
    connectionsCheckingInterval: Math.min(30_000, Math.max(250, config.REQUEST_TIMEOUT * 50)),
  });
  answerClientErrors(server, log);
  const schema = buildAppSchema();
  const limiter = services.rateLimits;
  const costLimits = { maxCost: config.GRAPHQL_MAX_COST, maxDepth: config.GRAPHQL_MAX_DEPTH, maxTokens: config.GRAPHQL_MAX_TOKENS };
  const gate = new CostGate(schema, costLimits);
  const cost = costLimit(costLimits, gate);
  const apollo = new ApolloServer<GraphQLContext>({
    gateway: jitGateway(schema),
    formatError: graphqlErrorFormatter(null),
    includeStacktraceInErrorResponses: false,
    // POST /graphql is public and anonymous callers may introspect; Apollo
    // would turn introspection off whenever NODE_ENV is production.
    introspection: true,
    // Validating a document costs time in its size before its cost can be known (a thousand
    // aliases: about a second of the event loop), so a document is first refused by its length.
    parseOptions: { maxTokens: costLimits.maxTokens },
    validationRules: [cost.rule],
    // Parsed documents, kept by their text. Apollo's default bound, 30 MiB as it counts sizes (a
    // document's JSON, a quarter of what its syntax tree takes), is some 120 MB of heap, more than
    // the rest of the service; a soak whose queries carried literal ids kept filling it. Any
    // caller may send new texts; clients that pass variables need a handful.
    documentStore: new InMemoryLRUCache<DocumentNode>({ maxSize: 4 * 2 ** 20 }),
    // main.ts shuts everything down in order; Apollo's own handler would re-raise the signal and
    // end the process (exit 143) before the database and the job queue were closed.
    stopOnTerminationSignals: false,
    plugins: [
      // Browsers get the offline GraphiQL (graphql/graphiql.ts), not Apollo's page from its CDN.
      ApolloServerPluginLandingPageDisabled(),
      // No answer carries cache hints (signed, per-caller data); Apollo's default cache-control
      // plugin would still wrap every field's resolver to compute them (bench/lots.mjs profile).
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginDrainHttpServer({ httpServer: server }),
      selfRegistrationGuard,
      cost.plugin,
      cachedIntrospection(schema),
      graphqlRateLimit(limiter),
      internalErrorRequestId(log),
      persistedQueryStatus,
    ],
  });
  await apollo.start();

  web.use(async (koa, next) => {
    const given = koa.get('x-request-id');
    const requestId = REQUEST_ID.test(given) ? given : randomUUID();
    koa.state.requestId = requestId;
    koa.set('X-Request-Id', requestId);
    // No answer of ours is meant to be sniffed into another type (an error page, a file, JSON).
    koa.set('X-Content-Type-Options', 'nosniff');
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ requestId, address: clientOf(koa.req).address, method: koa.method, path: koa.path, status: koa.status, ms: Math.round(ms * 10) / 10 }, 'request');
      // @koa/router's public `routerPath`: the path of the route that answered (unset when none matched).
      metrics.request(koa.method, typeof koa.routerPath === 'string' ? koa.routerPath : undefined, koa.status, ms / 1000);
    }
  });
  web.use(errorHandler(log, GRAPHQL_PATH));
  web.use(readBody(config.BODY_LIMIT, new Set(['/documents'])));
  web.use(async (koa, next) => {
    const em = orm.em.fork();
    const client = clientOf(koa.req);
    // The metrics route checks its own bearer token (METRICS_TOKEN), which is no JWT.
    const auth = koa.path === METRICS_PATH ? ANONYMOUS : await authenticator.authenticate(
      em,
      { method: koa.method, target: koa.originalUrl, header: (name) => koa.get(name) || undefined, body: koa.state.rawBody },
    );
    const ctx: RequestContext = {
      requestId: koa.state.requestId,
      caller: auth.caller,
      provenKey: auth.provenKey,
      jwtSubject: auth.jwt?.sub ?? null,
      em,
      local: client.local,
      address: client.address,
    };
    koa.state.ctx = ctx;
    await next();
  });
  web.use(restRateLimit(limiter, GRAPHQL_PATH));

  const router = new AppRouter(services);
  const readiness = Readiness.of(orm);
  router.raw(['get'], '/healthz', { summary: 'Liveness: the process answers and can recover by itself (503 when not: restart it)', produces: 'application/json' }, (koa) => {
    const ok = healthy();
    koa.status = ok ? 200 : 503;
    koa.body = { status: ok ? 'ok' : 'embedded database cannot start' };
  });
  router.raw(['get'], '/readyz', { summary: 'Readiness: the database answers and the bid log signs with this instance\'s key (503 when not)', produces: 'application/json' }, async (koa) => {
    const signing = services.transparencyLog.signing;
    const ready = signing && (await readiness.ready());
    koa.status = ready ? 200 : 503;
    koa.body = { status: ready ? 'ok' : signing ? 'database unavailable' : 'bid log key replaced: restart with the log key' };
  });
  router.raw(['get'], '/.well-known/jwks.json', { summary: 'The public keys of the JWTs (JWKS)', produces: 'application/json' }, (koa) => {
    koa.body = jwt.jwks();
  });
  router.raw(['get', 'post'], GRAPHQL_PATH, { summary: 'GraphQL (schema/schema.graphql); a browser asking for HTML gets GraphiQL', produces: 'application/graphql-response+json' }, withGraphiql(apolloKoa(apollo, async (koa, signal) => graphqlContext(koa.state.ctx, services, signal), gate)));
  graphiqlRoutes(router);
  for (const module of MODULES) router.within(module.name, () => module.routes?.(router, config));
  router.within('live', () => livePageRoutes(router));
  metricsRoutes(router, metrics, config.METRICS_TOKEN);
  openApiRoutes(router);
  web.use(router.koa.routes());
  // The router only sets the status and `Allow`; the error handler answers them as JSON:API errors.
  web.use(router.koa.allowedMethods());
  resolveClients(server, config.TRUST_PROXY);
  server.on('request', web.callback());

  const wss = new WebSocketServer({ server, path: GRAPHQL_PATH, maxPayload: config.WS_MAX_PAYLOAD });
  const ws = serveGraphqlWs(wss, schema, orm, services, authenticator, {
    log,
    maxSubscriptions: config.WS_MAX_SUBSCRIPTIONS,
    admission: {
      maxConnections: config.WS_MAX_CONNECTIONS,
      maxConnectionsPerAddress: config.WS_MAX_CONNECTIONS_PER_ADDRESS,
      maxSubscriptions: config.WS_MAX_TOTAL_SUBSCRIPTIONS,
      maxSubscriptionsPerAddress: config.WS_MAX_SUBSCRIPTIONS_PER_ADDRESS,
    },
    budget: { perAddress: config.WS_SUBSCRIPTION_BUDGET_PER_ADDRESS, perAccount: config.WS_SUBSCRIPTION_BUDGET_PER_ACCOUNT },
    cost: costLimits,
    keepAliveMs: config.WS_KEEPALIVE * 1000,
    maxBufferedBytes: config.WS_MAX_BUFFERED,
    signedSessionMs: config.JWT_TTL * 1000,
  });
  metrics.watchLive(() => ({ sockets: wss.clients.size, subscriptions: services.live.listenerCount(), deliveries: ws.figures.deliveries, executions: ws.figures.executions, replayReads: services.feeds.replayReads }));


  return {
    server,
    services,
    jwt,
    router,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve(server.address() as AddressInfo));
      }),
    async close() {
      await jobs?.stop();
      await ws.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await apollo.stop();
      await services.live.close();
      readiness.close();
    },
  };
}
