import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { WebSocketServer } from 'ws';
import type { Authenticator } from '../auth/authenticate';
import type { Caller } from '../core/context';
import { DomainError } from '../core/errors';
import type { Services } from '../services';
import { graphqlContext, type GraphQLContext } from './context';

interface Extra extends Record<PropertyKey, unknown> {
  request: IncomingMessage;
  caller?: Caller | null;
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * GraphQL over WebSocket (graphql-transport-ws) on /graphql. The socket authenticates once at
 * connect: `connectionParams.authorization` ("Bearer <jwt>"), or the signature headers of the
 * upgrade request itself.
 */
export function serveGraphqlWs(wss: WebSocketServer, schema: GraphQLSchema, orm: MikroORM, services: Services, auth: Authenticator) {
  return useServer<Record<string, unknown> | undefined, Extra>(
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
          return true;
        } catch (err) {
          if (err instanceof DomainError) return false;
          throw err;
        }
      },
      context: (ctx): GraphQLContext =>
        graphqlContext(
          { requestId: randomUUID(), caller: ctx.extra.caller ?? null, provenKey: null, jwtSubject: null, em: orm.em.fork(), local: false },
          services,
        ),
    },
    wss,
  );
}
