import { Readable } from 'node:stream';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import type { Context, Middleware } from 'koa';
import { clientGone } from './cancellation';
import type { GraphQLContext } from './context';
import type { CostGate } from './cost-gate';
import { graphqlErrorFormatter } from './errors';

const formatRefusal = graphqlErrorFormatter(null);

/** The media type Apollo would answer with: GraphQL's own when the client accepts it. */
const answerType = (accept: string) => (accept.includes('application/graphql-response+json') ? 'application/graphql-response+json; charset=utf-8' : 'application/json; charset=utf-8');

/**
 * Apollo Server on Koa. The maintained integration (@as-integrations/koa 3) requires Node 22,
 * so this is its small equivalent over Apollo's documented executeHTTPGraphQLRequest. A POST
 * `gate` refuses is answered here, as Apollo would answer it, without Apollo.
 */
export function apolloKoa(server: ApolloServer<GraphQLContext>, context: (koa: Context, signal: AbortSignal) => Promise<GraphQLContext>, gate?: CostGate): Middleware {
  return async (koa) => {
    const refused = koa.method === 'POST' ? gate?.refusal(koa.state.body) : null;
    if (refused) {
      koa.set('Cache-Control', 'no-store');
      koa.status = refused.status;
      koa.type = answerType(koa.get('accept'));
      koa.body = `${JSON.stringify({ errors: [formatRefusal({ message: refused.message }, refused)] })}\n`;
      return;
    }
    // A client that goes away before the answer is written aborts the operation: its resolvers
    // stop reading (`cancellation.ts`) instead of working on for nobody.
    const gone = new AbortController();
    koa.res.once('close', () => {
      if (!koa.res.writableFinished) gone.abort(clientGone());
    });
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(koa.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const response = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: koa.method.toUpperCase(), headers, search: koa.querystring, body: koa.state.body },
      context: () => context(koa, gone.signal),
    });
    // Answers are the caller's own: no shared cache may keep them (what Apollo's cache-control
    // plugin, turned off in app.ts, said for answers without hints).
    koa.set('Cache-Control', 'no-store');
    for (const [name, value] of response.headers) koa.set(name, value);
    koa.status = response.status ?? 200;
    koa.body = response.body.kind === 'complete' ? response.body.string : Readable.from(response.body.asyncIterator);
  };
}
