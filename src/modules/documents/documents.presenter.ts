import { resource, type Resource } from '../../rest/document';
import { rfc3339 } from '../../core/time';
import type { StoredDocument } from './documents.entity';

/** A document resource; `storageLink` is '' in lists. */
export function presentDocument(d: StoredDocument, storageLink: string): Resource {
  return {
    ...resource('documents', d.id, {
      file_name: d.fileName,
      document_type: d.documentType,
      content_type: d.contentType,
      size: d.size,
      owners: d.owners,
      storage_link: storageLink,
      created_at: rfc3339(d.createdAt),
      expires_at: d.expiresAt ? rfc3339(d.expiresAt) : null,
    }),
    links: { self: `/documents/${encodeURIComponent(d.id)}` },
  };
}
