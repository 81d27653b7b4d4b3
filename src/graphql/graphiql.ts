import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Context, Middleware, Next } from 'koa';
import { notFound } from '../core/errors';
import type { AppRouter } from '../rest/router';

const dirOf = (pkg: string) => path.dirname(require.resolve(`${pkg}/package.json`));
const JS = 'application/javascript; charset=utf-8';

/**
 * GraphiQL 3 and React 18 as their packages ship them (UMD builds): no bundling step, no CDN.
 * GraphiQL 3 is the last major with a UMD build; it carries its own graphql-js and fonts.
 */
const ASSETS: Record<string, { file: string; type: string }> = {
  'react.js': { file: path.join(dirOf('react'), 'umd/react.production.min.js'), type: JS },
  'react-dom.js': { file: path.join(dirOf('react-dom'), 'umd/react-dom.production.min.js'), type: JS },
  'graphiql.js': { file: path.join(dirOf('graphiql'), 'graphiql.min.js'), type: JS },
  'graphiql.css': { file: path.join(dirOf('graphiql'), 'graphiql.min.css'), type: 'text/css; charset=utf-8' },
};

const INIT = `ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, { fetcher: GraphiQL.createFetcher({ url: '/graphql' }), defaultQuery: '{ __typename }' }),
);
`;

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Vehicle auction service: GraphiQL</title>
<link rel="stylesheet" href="/graphiql/graphiql.css">
<style>body { margin: 0; } #graphiql { height: 100vh; }</style>
</head>
<body>
<div id="graphiql"></div>
<script src="/graphiql/react.js"></script>
<script src="/graphiql/react-dom.js"></script>
<script src="/graphiql/graphiql.js"></script>
<script src="/graphiql/init.js"></script>
</body>
</html>
`;

/**
 * Scripts and requests stay on this origin. GraphiQL's editor and its emotion styles are set
 * from script, and its fonts and icons are data: URLs in its stylesheet.
 */
export const GRAPHIQL_CSP = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A browser's GET (it prefers HTML); API clients, which ask for JSON or anything, reach GraphQL. */
const wantsPage = (koa: Context) => koa.method === 'GET' && koa.accepts('application/json', 'application/graphql-response+json', 'text/html') === 'text/html';

/** GET /graphql in a browser answers GraphiQL; every other request goes to `graphql`. */
export function withGraphiql(graphql: Middleware): Middleware {
  return (koa: Context, next: Next) => {
    if (!wantsPage(koa)) return graphql(koa, next);
    koa.set('Content-Security-Policy', GRAPHIQL_CSP);
    koa.type = 'text/html; charset=utf-8';
    koa.body = PAGE;
  };
}

/** GET /graphiql/{file}: the page's scripts and styles, from node_modules. */
export function graphiqlRoutes(router: AppRouter): void {
  router.raw(['get'], '/graphiql/:file', { summary: 'A file of the GraphiQL page (GraphiQL and React, from npm)', produces: 'application/javascript' }, (koa) => {
    const name = koa.params.file;
    koa.set('Cache-Control', 'public, max-age=3600');
    if (name === 'init.js') {
      koa.type = JS;
      koa.body = INIT;
      return;
    }
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw notFound('route_not_found', `no file ${name} in the GraphiQL page`);
    koa.type = asset.type;
    koa.body = createReadStream(asset.file);
  });
}
