import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { notFound } from '../core/errors';
import { openApiDocument } from './openapi';
import type { AppRouter } from './router';

const { version } = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { version: string };
const SWAGGER_UI = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The renderer's files, served from the npm package: the page works with no network beyond this origin. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui-bundle.js': { file: path.join(SWAGGER_UI, 'swagger-ui-bundle.js'), type: 'application/javascript; charset=utf-8' },
  'swagger-ui.css': { file: path.join(SWAGGER_UI, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'favicon.png': { file: path.join(SWAGGER_UI, 'favicon-32x32.png'), type: 'image/png' },
};

// `validatorUrl: null`: Swagger UI would otherwise send the document to an online validator.
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true, validatorUrl: null, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });
});
`;

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Vehicle auction service: REST reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon.png">
</head>
<body>
<div id="docs"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * Scripts, styles and requests stay on this origin. Swagger UI sets element styles from script
 * and draws its icons as data: SVGs in its stylesheet, hence the two exceptions.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** GET /openapi.json and its reference page GET /docs. Registered last: the document describes every route registered before its first request. */
export function openApiRoutes(router: AppRouter): void {
  let document: string | null = null;
  router.raw(['get'], '/openapi.json', { summary: 'This OpenAPI 3.1 document', produces: 'application/json' }, (koa) => {
    document ??= JSON.stringify(openApiDocument(router.operations, version));
    koa.type = 'application/json';
    koa.body = document;
  });
  router.raw(['get'], '/docs', { summary: 'The REST reference, rendered offline from /openapi.json', produces: 'text/html' }, (koa) => {
    koa.set('Content-Security-Policy', DOCS_CSP);
    koa.type = 'text/html; charset=utf-8';
    koa.body = PAGE;
  });
  router.raw(['get'], '/docs/:file', { summary: 'A file of the reference page (the renderer, bundled from npm)', produces: 'application/octet-stream' }, (koa) => {
    const name = koa.params.file;
    koa.set('Cache-Control', 'public, max-age=3600');
    if (name === 'init.js') {
      koa.type = 'application/javascript; charset=utf-8';
      koa.body = INIT;
      return;
    }
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw notFound('route_not_found', `no file ${name} in the reference page`);
    koa.type = asset.type;
    koa.body = createReadStream(asset.file);
  });
}
