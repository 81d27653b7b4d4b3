import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Authenticator } from '../auth/authenticate';
import type { Caller } from '../core/context';
import { DomainError, invalid } from '../core/errors';
import type { Logger } from '../core/logger';
import type { Services } from '../services';
import { graphqlContext, type GraphQLContext } from './context';
import { graphqlErrorFormatter } from './errors';
import { CLOSE, WsSessions } from './ws.sessions';

interface Extra extends Record<PropertyKey, unknown> {
  request: IncomingMessage;
  socket: WebSocket;
  caller?: Caller | null;
}

export interface WsOptions {
  log: Logger;
  /** Operations one socket may have running at once. */
  maxSubscriptions: number;
  /** Interval of the server's pings; a socket that does not answer within it is dropped. 0: none. */
  keepAliveMs: number;
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Parse and validation failures carry Apollo's codes, so that one formatter maps both transports. */
const tagged = (err: GraphQLError, code: string) => new GraphQLError(err.message, { nodes: err.nodes, source: err.source, positions: err.positions, extensions: { code } });

/**
 * GraphQL over WebSocket (graphql-transport-ws) on /graphql. The socket authenticates once at
 * connect: `connectionParams.authorization` ("Bearer <jwt>"), or the signature headers of the
 * upgrade request itself; a failure closes it with 4403 and the error code as reason. An
 * authenticated socket is closed with 4401 when its token expires and with 4403 when its account
 * is blacklisted as stopped (on any instance). Errors are shaped as on HTTP.
 */
export function serveGraphqlWs(wss: WebSocketServer, schema: GraphQLSchema, orm: MikroORM, services: Services, auth: Authenticator, options: WsOptions) {
  const format = graphqlErrorFormatter(options.log);
  const formatAll = (errors: readonly GraphQLError[]) => errors.map((e) => format(e.toJSON(), e));
  const sessions = new WsSessions();
  const stopped = services.live.onAccountStopped((accountId) => sessions.closeAccount(accountId));

  const server = useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      onConnect: async (ctx) => {
        const req = ctx.extra.request;
        const param = ctx.connectionParams?.authorization;
        try {
          const result = await auth.authenticate(orm.em.fork(), {
            method: 'GET',
            target: req.url ?? '/graphql',
            header: (name) => (name === 'authorization' && typeof param === 'string' ? param : headerOf(req, name)),
            body: null,
          });
          ctx.extra.caller = result.caller;
          if (result.caller) sessions.track(result.caller.accountId, ctx.extra.socket, result.jwt ? result.jwt.exp * 1000 : null);
          return true;
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          ctx.extra.socket.close(CLOSE.forbidden, err.code);
          return false;
        }
      },
      onSubscribe: (ctx, _id, payload) => {
        // The operation being subscribed is already counted.
        if (Object.keys(ctx.subscriptions).length > options.maxSubscriptions) {
          const err = invalid('too_many_subscriptions', `a socket runs at most ${options.maxSubscriptions} operations at once`);
          return [new GraphQLError(err.message, { originalError: err })];
        }
        let document: DocumentNode;
        try {
          document = parse(payload.query);
        } catch (err) {
          return [tagged(err as GraphQLError, 'GRAPHQL_PARSE_FAILED')];
        }
        const errors = validate(schema, document);
        if (errors.length) return errors.map((e) => tagged(e, 'GRAPHQL_VALIDATION_FAILED'));
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables };
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors?.length ? { ...result, errors: formatAll(result.errors) } : undefined),
      onError: (_ctx, _id, _payload, errors) => formatAll(errors),
      context: (ctx): GraphQLContext =>
        graphqlContext(
          { requestId: randomUUID(), caller: ctx.extra.caller ?? null, provenKey: null, jwtSubject: null, em: orm.em.fork(), local: false },
          services,
        ),
    },
    wss,
    options.keepAliveMs,
  );
  return {
    async dispose() {
      stopped.then((off) => off(), () => undefined);
      await server.dispose();
    },
  };
}
