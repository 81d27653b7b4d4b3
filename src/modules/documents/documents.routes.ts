import type { Config } from '../../config';
import { numberLinks } from '../../rest/pagination';
import type { QuerySpec } from '../../rest/query';
import type { AppRouter } from '../../rest/router';
import { DEFAULT_DOCUMENT_PAGE_SIZE } from './documents.input';
import { presentDocument } from './documents.presenter';
import { contentDisposition } from './documents.storage';
import { readUpload } from './documents.upload.routes';

const INDEX_QUERY: QuerySpec = {
  plain: { in: { kind: 'list', required: true, item: /^.{1,100}$/ } },
  page: 'number',
  defaultPageSize: DEFAULT_DOCUMENT_PAGE_SIZE,
};

/** Documents (INTERFACE.md §4.10) and the bytes behind the local storage's signed links. */
export function documentsRoutes(router: AppRouter, config: Pick<Config, 'UPLOAD_LIMIT' | 'SIGNATURE_LEGACY'>): void {
  const { documents } = router.services;

  router.post('/documents', { authenticated: true, status: 201, fields: 'form' }, async ({ rc, koa }) => {
    const { bytes, fileName, attributes } = await readUpload(koa, rc, config.UPLOAD_LIMIT, config.SIGNATURE_LEGACY);
    const { document_type, owners, expires } = attributes;
    const { document, storageLink } = await documents.upload(rc, { file: bytes, fileName, documentType: document_type, owners, expires });
    return { data: presentDocument(document, storageLink) };
  });

  router.get('/documents/:id', {}, async ({ rc, params }) => {
    const { document, storageLink } = await documents.get(rc, params.id);
    return { data: presentDocument(document, storageLink) };
  });

  const listFields = { in: 'query', names: { ids: 'in', page: 'page.number', size: 'page.size' } } as const;
  router.get('/documents', { authenticated: true, query: INDEX_QUERY, fields: listFields }, async ({ rc, query, path, search, koa }) => {
    const ids = query.plain.in as string[];
    const { number, size } = query.page as { number: number; size: number };
    const page = await documents.list(rc, { ids, page: number, size });
    return {
      data: page.items.map((d) => presentDocument(d, '')),
      links: numberLinks(path, search, page.page, page.size, page.total, koa.originalUrl),
      meta: { on_page: page.items.length, total_items: page.total },
    };
  });

  router.koa.get('/files/:id', async (koa) => {
    const { expires, signature } = koa.query as Record<string, string | undefined>;
    const { stream, size, document } = await documents.openLink(koa.state.rc, koa.params.id, expires, signature);
    koa.set('Content-Disposition', contentDisposition(document));
    // Uploaded HTML must not run scripts on our origin.
    koa.set('Content-Security-Policy', "sandbox; default-src 'none'");
    koa.set('Cache-Control', 'private, no-store');
    koa.type = document.contentType;
    koa.length = size;
    koa.body = stream;
  });
}
