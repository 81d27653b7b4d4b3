import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Keypair } from '@stellar/stellar-sdk';
import Koa from 'koa';
import { WebSocketServer } from 'ws';
import { Authenticator } from './auth/authenticate';
import { JwtService } from './auth/jwt';
import type { Config } from './config';
import type { RequestContext } from './core/context';
import type { Logger } from './core/logger';
import { graphqlContext, type GraphQLContext } from './graphql/context';
import { graphqlErrorFormatter, internalErrorRequestId } from './graphql/errors';
import { selfRegistrationGuard } from './graphql/guards';
import { apolloKoa } from './graphql/koa';
import { buildAppSchema } from './graphql/schema';
import { serveGraphqlWs } from './graphql/ws';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { contactsRoutes } from './modules/accounts/contacts.routes';
import { blacklistRoutes } from './modules/blacklist/blacklist.routes';
import { credentialsRoutes } from './modules/credentials/credentials.routes';
import { currencyRoutes } from './modules/currency/currency.routes';
import { refreshRates } from './modules/currency/currency.refresh';
import { startJobs } from './jobs/jobs';
import { bidsRoutes } from './modules/bids/bids.routes';
import { lotsRoutes } from './modules/lots/lots.routes';
import { livePageRoutes } from './live-page/live-page.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { messagesRoutes } from './modules/messages/messages.routes';
import { platformsRoutes } from './modules/platforms/platforms.routes';
import { recoveryRoutes } from './modules/recovery/recovery.routes';
import { referenceRoutes } from './modules/reference/reference.routes';
import { requestsRoutes } from './modules/requests/requests.routes';
import { systemRoutes } from './modules/system/system.routes';
import { verificationRoutes } from './modules/verification/verification.routes';
import { watchlistRoutes } from './modules/watchlist/watchlist.routes';
import { depositsRoutes } from './modules/trading/deposits.routes';
import { documentsRoutes } from './modules/documents/documents.routes';
import { tradingRoutes } from './modules/trading/trading.routes';
import { ledgerRoutes } from './modules/ledger/ledger.routes';
import { readBody } from './rest/body';
import { errorHandler } from './rest/errors';
import { AppRouter } from './rest/router';
import { createServices, type Services } from './services';

export interface AppDeps {
  config: Config;
  orm: MikroORM;
  master: Keypair;
  log: Logger;
}

export interface App {
  server: Server;
  services: Services;
  jwt: JwtService;
  listen(port: number, host?: string): Promise<AddressInfo>;
  /** Stops accepting, finishes requests in flight, closes sockets. The database stays open. */
  close(): Promise<void>;
}

const GRAPHQL_PATH = '/graphql';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export async function createApp({ config, orm, master, log }: AppDeps): Promise<App> {
  const jwt = await JwtService.create(master, config.JWT_TTL);
  const services = createServices(config, master, jwt, log);
  await services.platforms.ensureMasterAccount({ em: orm.em.fork() });
  // The first answers use the source's rates; the job queue refreshes them from then on.
  if (config.RATES_URL) await refreshRates(orm, services.currency, config.RATES_URL, log);
  const jobs = config.JOBS === 'on' ? await startJobs({ config, orm, services, log }) : null;
  const authenticator = new Authenticator(jwt, {
    windowSeconds: config.SIGNATURE_WINDOW,
    legacy: config.SIGNATURE_LEGACY,
  });

  const koa = new Koa();
  const server = createServer();
  const schema = buildAppSchema();
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    formatError: graphqlErrorFormatter(null),
    includeStacktraceInErrorResponses: false,
    // POST /graphql is public and anonymous callers may introspect (PROTOCOL.md §9); Apollo
    // would turn introspection off whenever NODE_ENV is production.
    introspection: true,
    // main.ts shuts everything down in order; Apollo's own handler would re-raise the signal and
    // end the process (exit 143) before the database and the job queue were closed.
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginDrainHttpServer({ httpServer: server }), selfRegistrationGuard, internalErrorRequestId(log)],
  });
  await apollo.start();

  koa.use(async (ctx, next) => {
    const given = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    // No answer of ours is meant to be sniffed into another type (an error page, a file, JSON).
    ctx.set('X-Content-Type-Options', 'nosniff');
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  });
  koa.use(errorHandler(log, GRAPHQL_PATH));
  koa.use(readBody(config.BODY_LIMIT, new Set(['/documents'])));
  koa.use(async (ctx, next) => {
    const em = orm.em.fork();
    const peer = ctx.req.socket.remoteAddress ?? '';
    const forwarded = ctx.get('x-forwarded-for') !== '' || ctx.get('forwarded') !== '';
    const auth = await authenticator.authenticate(
      em,
      { method: ctx.method, target: ctx.originalUrl, header: (name) => ctx.get(name) || undefined, body: ctx.state.rawBody },
      ctx.method === 'POST' && (ctx.path === '/accounts' || ctx.path === GRAPHQL_PATH),
    );
    const rc: RequestContext = {
      requestId: ctx.state.requestId,
      caller: auth.caller,
      provenKey: auth.provenKey,
      jwtSubject: auth.jwt?.sub ?? null,
      em,
      local: LOOPBACK.test(peer) && !forwarded,
    };
    ctx.state.rc = rc;
    await next();
  });

  const router = new AppRouter(services);
  router.koa.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.koa.get('/readyz', async (ctx) => {
    const ready = await orm.isConnected();
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ok' : 'database unavailable' };
  });
  router.koa.get('/.well-known/jwks.json', (ctx) => {
    ctx.body = jwt.jwks();
  });
  router.koa.all(GRAPHQL_PATH, apolloKoa(apollo, async (ctx) => graphqlContext(ctx.state.rc, services)));
  systemRoutes(router);
  referenceRoutes(router);
  verificationRoutes(router);
  accountsRoutes(router);
  contactsRoutes(router);
  blacklistRoutes(router);
  credentialsRoutes(router);
  recoveryRoutes(router);
  platformsRoutes(router);
  currencyRoutes(router);
  lotsRoutes(router);
  bidsRoutes(router);
  requestsRoutes(router);
  watchlistRoutes(router);
  tradingRoutes(router);
  depositsRoutes(router);
  documentsRoutes(router, config);
  notificationsRoutes(router);
  ledgerRoutes(router);
  livePageRoutes(router);
  messagesRoutes(router);
  koa.use(router.koa.routes());
  koa.use(router.koa.allowedMethods({ throw: true }));
  server.on('request', koa.callback());

  const wss = new WebSocketServer({ server, path: GRAPHQL_PATH, maxPayload: config.WS_MAX_PAYLOAD });
  const ws = serveGraphqlWs(wss, schema, orm, services, authenticator, {
    log,
    maxSubscriptions: config.WS_MAX_SUBSCRIPTIONS,
    keepAliveMs: config.WS_KEEPALIVE * 1000,
    maxBufferedBytes: config.WS_MAX_BUFFERED,
    signedSessionMs: config.JWT_TTL * 1000,
  });


  return {
    server,
    services,
    jwt,
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
    },
  };
}
