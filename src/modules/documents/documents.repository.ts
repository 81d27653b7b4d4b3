import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../core/errors';
import { StoredDocument } from './documents.entity';
import { DOCUMENT_ID } from './documents.input';

/** Documents that have not expired: an expired document is gone for every reader. */
const live = () => ({ $or: [{ expiresAt: null }, { expiresAt: { $gt: new Date() } }] });

export function findLiveDocument(em: EntityManager, id: string): Promise<StoredDocument | null> {
  return DOCUMENT_ID.test(id) ? em.findOne(StoredDocument, { id, ...live() }) : Promise.resolve(null);
}

export function findLiveDocuments(em: EntityManager, ids: string[]): Promise<StoredDocument[]> {
  const wellFormed = ids.filter((id) => DOCUMENT_ID.test(id));
  return wellFormed.length ? em.find(StoredDocument, { id: { $in: wellFormed }, ...live() }) : Promise.resolve([]);
}

/** Winner details' invoice_id: a live document, public or owned by the lot's winner. */
export async function requireInvoice(em: EntityManager, invoiceId: string, winnerId: string | null): Promise<void> {
  const document = await findLiveDocument(em, invoiceId);
  const usable = document && (document.documentType === 'public' || (winnerId !== null && document.owners?.includes(winnerId)));
  if (!usable) {
    throw invalid('invalid_invoice', "invoiceId must name an existing document that is public or owned by the lot's winner", { field: 'invoiceId' });
  }
}
