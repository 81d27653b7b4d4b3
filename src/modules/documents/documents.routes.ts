import type { Config } from '../../config';
import { numberLinks } from '../../rest/pagination';
import type { QuerySpec } from '../../rest/query';
import type { AppRouter } from '../../rest/router';
import { DEFAULT_DOCUMENT_PAGE_SIZE } from './documents.input';
import { presentDocument } from './documents.presenter';
import { contentDisposition } from './documents.storage';
import { readUpload } from './documents.upload.routes';
import { UploadSlots } from './documents.upload-slots';

const INDEX_QUERY: QuerySpec = {
  plain: { in: { kind: 'list', required: true, item: /^.{1,100}$/ } },
  page: 'number',
  defaultPageSize: DEFAULT_DOCUMENT_PAGE_SIZE,
};

/** Documents and the bytes behind the local storage's signed links. */
export function documentsRoutes(router: AppRouter, config: Pick<Config, 'UPLOAD_LIMIT' | 'UPLOADS_AT_ONCE' | 'UPLOADS_PER_ACCOUNT' | 'SIGNATURE_LEGACY'>): void {
  const { documents } = router.services;
  const slots = new UploadSlots(config.UPLOADS_AT_ONCE, config.UPLOADS_PER_ACCOUNT);

  router.post('/documents', { summary: 'Upload a document (multipart: file, and file[attributes] as a JSON:API document)', authenticated: true, status: 201, fields: 'form', body: 'multipart', response: 'documents' }, async ({ ctx, koa }) => {
    // Held until the answer is sent or the connection ends (a stalled upload: at REQUEST_TIMEOUT).
    // The route is authenticated: the caller is known by then.
    koa.res.once('close', slots.take(ctx.caller?.accountId ?? koa.ip));
    const { bytes, fileName, attributes } = await readUpload(koa, ctx, config.UPLOAD_LIMIT, config.SIGNATURE_LEGACY);
    const { document_type, owners, expires } = attributes;
    const { document, storageLink } = await documents.upload(ctx, { file: bytes, fileName, documentType: document_type, owners, expires });
    return { data: presentDocument(document, storageLink) };
  });

  router.get('/documents/:id', { summary: 'Read a document and its storage link', response: 'documents' }, async ({ ctx, params }) => {
    const { document, storageLink } = await documents.get(ctx, params.id);
    return { data: presentDocument(document, storageLink) };
  });

  const listFields = { in: 'query', names: { ids: 'in', page: 'page.number', size: 'page.size' } } as const;
  router.get('/documents', { summary: 'List documents by id', authenticated: true, response: ['documents'], query: INDEX_QUERY, fields: listFields }, async ({ ctx, query, path, search, koa }) => {
    const ids = query.plain.in as string[];
    const { number, size } = query.page as { number: number; size: number };
    const page = await documents.list(ctx, { ids, page: number, size });
    return {
      data: page.items.map((d) => presentDocument(d, '')),
      links: numberLinks(path, search, page.page, page.size, page.total, koa.originalUrl),
      meta: { on_page: page.items.length, total_items: page.total },
    };
  });

  router.raw(['get'], '/files/:id', { summary: 'The bytes of a document, through a signed link', produces: 'application/octet-stream' }, async (koa) => {
    const { expires, signature } = koa.query as Record<string, string | undefined>;
    const { stream, size, document } = await documents.openLink(koa.state.ctx, koa.params.id, expires, signature);
    koa.set('Content-Disposition', contentDisposition(document));
    // Uploaded HTML must not run scripts on our origin.
    koa.set('Content-Security-Policy', "sandbox; default-src 'none'");
    koa.set('Cache-Control', 'private, no-store');
    koa.type = document.contentType;
    koa.length = size;
    koa.body = stream;
  });
}
