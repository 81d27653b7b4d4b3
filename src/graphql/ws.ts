import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import { getOperationAST, getVariableValues, GraphQLError, parse, validate, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Context, SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Authenticator } from '../auth/authenticate';
import { clientOf } from '../core/client-address';
import type { Caller } from '../core/context';
import { DomainError, invalid } from '../core/errors';
import type { Logger } from '../core/logger';
import { LiveFanout } from '../live/live.fanout';
import { assertUncompressed } from '../live/ws-frames';
import { addressGroup } from '../modules/limits';
import type { Services } from '../services';
import { assertVariablesBounded, checkCost, type CostLimits } from './cost';
import { eventContext, lazyGraphqlContext, type GraphQLContext } from './context';
import { graphqlErrorFormatter } from './errors';
import { PassedOperations } from './passed-operations';
import { WsAdmission, type AdmissionLimits } from './ws.admission';
import { WsBudget, type BudgetLimits } from './ws.budget';
import { CLOSE, WsSessions } from './ws.sessions';

interface Extra extends Record<PropertyKey, unknown> {
  request: IncomingMessage;
  socket: WebSocket;
  caller?: Caller | null;
  /** Per operation id, the last subscribe message under it whose operation is still being set up. */
  settingUp?: Map<string, object>;
}

export interface WsOptions {
  log: Logger;
  /** Operations one socket may have running at once. */
  maxSubscriptions: number;
  admission: AdmissionLimits;
  /** Cost of the subscriptions one address, and one account, may run at once. */
  budget: BudgetLimits;
  cost: CostLimits;
  /** Interval of the server's pings; a socket that does not answer within it is dropped. 0: none. */
  keepAliveMs: number;
  /** Bytes a socket may have waiting to be sent; a socket beyond is closed (1013), not buffered for. */
  maxBufferedBytes: number;
  /** How long a socket authenticated by a signature (which carries no expiry) stays open. */
  signedSessionMs: number;
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Valid documents are kept by query text, a few and short ones: the subscribers of one page send
 * the same query, and sharing its document spares a parse, a validation and an AST per subscriber.
 */
const DOCUMENTS_KEPT = 100;
const LONGEST_KEPT = 4096;

/**
 * A refused subscription's answer. graphql-js's GraphQLError captures a stack trace, two thirds
 * of its making, which nothing reads: an attacker's refused subscriptions each paid for one.
 */
function refused(err: DomainError): GraphQLError[] {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return [new GraphQLError(err.message, { originalError: err })];
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Parse and validation failures carry Apollo's codes, so that one formatter maps both transports. */
const tagged = (err: GraphQLError, code: string) => new GraphQLError(err.message, { nodes: err.nodes, source: err.source, positions: err.positions, extensions: { code } });

/**
 * GraphQL over WebSocket (graphql-transport-ws) on /graphql. The socket authenticates once at
 * connect: `connectionParams.authorization` ("Bearer <jwt>"), or the signature headers of the
 * upgrade request itself; a failure closes it with 4403 and the error code as reason. An
 * authenticated socket is closed with 4401 when its token expires (a signed one after
 * `signedSessionMs`) and with 4403 when its account is blacklisted as stopped (on any instance).
 * It runs subscriptions only. Errors are shaped as on HTTP.
 */
export function serveGraphqlWs(wss: WebSocketServer, schema: GraphQLSchema, orm: MikroORM, services: Services, auth: Authenticator, options: WsOptions) {
  assertUncompressed(wss.options);
  const format = graphqlErrorFormatter(options.log);
  const formatAll = (errors: readonly GraphQLError[]) => errors.map((e) => format(e.toJSON(), e));
  const sessions = new WsSessions();
  const documents = new Map<string, DocumentNode>();
  const measured = new PassedOperations(new WeakMap<DocumentNode, Map<string, number>>());
  // Every subscription message passes `accepts` before it is sent: the metrics count them there.
  const figures = {
    deliveries: 0,
    get executions() {
      return fanout.executions;
    },
  };
  // A subscriber that reads slower than events arrive would otherwise hold an ever growing
  // buffer; it is closed instead, and may reconnect and resume with `after`.
  const accepts = (socket: WebSocket): boolean => {
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount <= options.maxBufferedBytes) return ++figures.deliveries > 0;
    socket.close(CLOSE.slow, 'slow consumer');
    return false;
  };
  const shape = (result: ExecutionResult) => (result.errors?.length ? { ...result, errors: formatAll(result.errors) } : result);
  const fanout = new LiveFanout(
    shape,
    accepts,
    (context) => (context as GraphQLContext).ctx.requestId,
    (context) => eventContext(context as GraphQLContext),
    // The caller is fixed at connect, and what a subscriber may see is decided by it alone.
    (context) => JSON.stringify((context as GraphQLContext).ctx.caller),
  );
  const admission = new WsAdmission(options.admission);
  const budget = new WsBudget({ ...options.budget, perOperation: options.cost.maxCost });
  // Registered before graphql-ws's own listener: a refused socket is closed before it is served.
  wss.on('connection', (socket, request) => admission.connect(socket, request));
  const stopped = services.live.onAccountStopped(({ accountId }) => sessions.closeAccount(accountId));

  /** Admits a subscribe message and charges its cost, or answers why not. */
  const admit = (connection: Context<Record<string, unknown> | undefined, Extra>, payload: SubscribePayload): ExecutionArgs | GraphQLError[] => {
    // The operation being subscribed is already counted.
    if (Object.keys(connection.subscriptions).length > options.maxSubscriptions) {
      const err = invalid('too_many_subscriptions', `a socket runs at most ${options.maxSubscriptions} operations at once`);
      return refused(err);
    }
    const refusal = admission.subscriptionRefusal(connection.extra.socket, connection.extra.request);
    if (refusal) return refused(refusal);
    let document = documents.get(payload.query);
    const known = document !== undefined;
    if (!document) {
      try {
        document = parse(payload.query, { maxTokens: options.cost.maxTokens });
      } catch (err) {
        return [tagged(err as GraphQLError, 'GRAPHQL_PARSE_FAILED')];
      }
    }
    // Measured before validation, as over HTTP (cost.ts): graphql-js's rules take time
    // superlinear in the fragments a document spreads. The cost is held to the budgets and to
    // GRAPHQL_MAX_COST when charged.
    // A kept document is measured once per variables: a burst of one text's subscriptions, two
    // thirds of whose time the measures took, costs lookups.
    let cost: number | undefined;
    try {
      assertVariablesBounded(payload.variables ?? undefined);
      const key = measured.keyOf(payload.operationName, payload.variables);
      cost = measured.costOf(document, key);
      if (cost === undefined) {
        cost = checkCost(schema, document, payload.variables ?? undefined, payload.operationName, { ...options.cost, maxCost: Number.POSITIVE_INFINITY });
        measured.add(document, key, cost);
      }
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return refused(err);
    }
    if (!known) {
      const errors = validate(schema, document);
      if (errors.length) return errors.map((e) => tagged(e, 'GRAPHQL_VALIDATION_FAILED'));
      if (payload.query.length <= LONGEST_KEPT) {
        if (documents.size >= DOCUMENTS_KEPT) documents.delete(documents.keys().next().value as string);
        documents.set(payload.query, document);
      }
    }
    // Queries and mutations go over HTTP, where each one is authenticated
    // (and each write signed once); the socket, authenticated once at connect, only subscribes.
    const operation = getOperationAST(document, payload.operationName);
    if (operation?.operation !== 'subscription') {
      const err = invalid('subscriptions_only', 'a WebSocket runs subscriptions only; send queries and mutations to POST /graphql');
      return refused(err);
    }
    // Variables that do not coerce are the client's fault, as Apollo answers them over HTTP:
    // graphql-js's subscribe would answer them with no code, as an unexpected failure.
    const coercion = getVariableValues(schema, operation.variableDefinitions ?? [], payload.variables ?? {}, { maxErrors: 50 });
    if (coercion.errors) return coercion.errors.map((e) => tagged(e, 'BAD_USER_INPUT'));
    const overBudget = budget.charge(connection.extra.socket, payload, cost, addressGroup(clientOf(connection.extra.request).address), connection.extra.caller?.accountId ?? null);
    if (overBudget) return refused(overBudget);
    return { schema, document, operationName: payload.operationName, variableValues: payload.variables };
  };
  /** Ends the setting up of an operation; false if a later subscribe message under its id came meanwhile. */
  const setUp = (extra: Extra, id: string, payload: object): boolean => {
    const latest = extra.settingUp?.get(id) === payload;
    if (latest) extra.settingUp?.delete(id);
    return latest;
  };

  const server = useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      // Unexpected failures close the socket without their message, whatever NODE_ENV says.
      isProd: true,
      onConnect: async (connection) => {
        const req = connection.extra.request;
        const param = connection.connectionParams?.authorization;
        try {
          const result = await auth.authenticate(orm.em.fork(), {
            method: 'GET',
            target: req.url ?? '/graphql',
            header: (name) => (name === 'authorization' && typeof param === 'string' ? param : headerOf(req, name)),
            body: null,
          });
          connection.extra.caller = result.caller;
          admission.track(connection.extra.socket, connection);
          // The caller is fixed at connect: a signed session ends like a token would, so that a
          // removed signer or a changed account does not keep a socket forever.
          if (result.caller) {
            if (result.jwt) sessions.track(result.caller.accountId, connection.extra.socket, result.jwt.exp * 1000, 'token expired');
            else sessions.track(result.caller.accountId, connection.extra.socket, Date.now() + options.signedSessionMs, 'session expired');
          }
          return true;
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          connection.extra.socket.close(CLOSE.forbidden, err.code);
          return false;
        }
      },
      onSubscribe: (connection, id, payload) => {
        (connection.extra.settingUp ??= new Map()).set(id, payload);
        const admitted = admit(connection, payload);
        if (Array.isArray(admitted)) setUp(connection.extra, id, payload);
        return admitted;
      },
      onOperation: (connection, id, payload, _args, result) => {
        if (setUp(connection.extra, id, payload)) return undefined;
        // The client completed this operation while it was being set up and reused its id:
        // graphql-ws would store this stream under the id the later operation holds, over it or
        // under it, and one of the two would run referenced by nothing, past `complete` and close.
        // It ends here instead, and its handler is left waiting forever (and collected), because
        // every way on from here deletes the later operation's entry under the id.
        if (Symbol.asyncIterator in result) void result[Symbol.asyncIterator]().return?.();
        budget.release(connection.extra.socket, payload);
        return new Promise<void>(() => undefined);
      },
      onComplete: (connection, _id, payload) => budget.release(connection.extra.socket, payload),
      subscribe: fanout.subscribe,
      onNext: (connection, _id, _payload, _args, result) => {
        // A socket closed here is skipped by graphql-ws's send.
        accepts(connection.extra.socket);
        return result.errors?.length ? shape(result) : undefined;
      },
      onError: (_ctx, _id, _payload, errors) => formatAll(errors),
      context: (connection, id, payload): GraphQLContext => {
        const context = lazyGraphqlContext(
          { requestId: randomUUID(), caller: connection.extra.caller ?? null, provenKey: null, jwtSubject: null, local: false, address: clientOf(connection.extra.request).address },
          () => orm.em.fork(),
          services,
        );
        fanout.register(context, connection.extra.socket, connection.extra.request.socket, id, payload);
        return context;
      },
    },
    wss,
    options.keepAliveMs,
  );
  // A socket's 'error' is a client breaking the protocol (a message over WS_MAX_PAYLOAD, a bad
  // frame), and ws has already closed it with the code that says so (1009, 1002). graphql-ws
  // would print each one to the console with its stack: the log says it in one line instead.
  wss.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', (err: Error & { code?: string }) => options.log.info({ code: err.code, message: err.message }, 'WebSocket closed: the client broke the protocol'));
  });
  return {
    figures,
    async dispose() {
      stopped.then((off) => off(), () => undefined);
      await server.dispose();
    },
  };
}
