import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { DomainError, forbidden, invalid, notFound, unauthenticated } from '../../core/errors';
import { requireCaller } from '../../core/policies';
import { validateInput } from '../../core/validate';
import { inTransaction } from '../../core/transaction';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { Account } from '../accounts';
import { detectType, DOCUMENT_TYPES } from './documents.detect';
import { StoredDocument } from './documents.entity';
import { DEFAULT_DOCUMENT_PAGE_SIZE, MAX_LISTED_IDS, uploadFields, type DocumentListInput, type UploadInput } from './documents.input';
import { findLiveDocument, findLiveDocuments } from './documents.repository';
import { type DocumentStorage, LocalStorage } from './documents.storage';

export interface DocumentView {
  document: StoredDocument;
  /** A signed link valid for the configured time; '' in lists. */
  storageLink: string;
}

export interface DocumentPage {
  items: StoredDocument[];
  total: number;
  page: number;
  size: number;
}

export interface DocumentContent {
  stream: Readable;
  size: number;
  document: StoredDocument;
}

const PURGE_BATCH = 500;
const notFoundDocument = () => notFound('document_not_found', 'no document with this id');

/**
 * Documents: uploads typed by their bytes, public or
 * private (readable by their owners only), optionally expiring. The bytes live in a storage
 * (local directory or S3); readers get a signed link valid for `linkTtl` seconds.
 */
/** The bytes an account's live documents hold (numeric, as text). */
interface Usage {
  used: string;
}

export class DocumentsService {
  constructor(
    private readonly storage: DocumentStorage,
    private readonly linkTtl: number,
    /** Bytes of live documents one account may have uploaded. */
    private readonly quotaBytes: number,
  ) {}

  /**
   * POST /documents. The bytes are stored before the row, and removed again when the row fails.
   * The row is written under a lock per uploader, after the uploader's live documents are summed
   * against the quota, so that concurrent uploads cannot together exceed it.
   */
  async upload(ctx: RequestContext, input: UploadInput): Promise<DocumentView> {
    const caller = requireCaller(ctx);
    const attrs = validateInput(uploadFields, input);
    const owners = attrs.owners?.length ? [...new Set(attrs.owners)] : null;
    if (attrs.documentType === 'private' && !owners) {
      throw invalid('owners_required', 'a private document needs at least one owner', { field: 'owners' });
    }
    const contentType = await this.contentTypeOf(input);
    if (owners) await this.requireAccounts(ctx.em, owners);

    const id = `${randomBytes(16).toString('base64url')}.${DOCUMENT_TYPES[contentType]}`;
    const days = attrs.expires ? Number.parseInt(attrs.expires, 10) : null;
    const fileName = cleanFileName(input.fileName) || id;
    await this.storage.put(id, input.file, { contentType, fileName });
    try {
      const document = await inTransaction(ctx, async (tx) => {
        await this.requireRoom(tx, caller.accountId, input.file.length);
        return tx.create(StoredDocument, {
          id,
          fileName,
          contentType,
          size: input.file.length,
          documentType: attrs.documentType,
          owners,
          uploadedBy: caller.accountId,
          expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000),
        });
      });
      return { document, storageLink: await this.linkOf(document) };
    } catch (err) {
      await this.storage.delete(id).catch(() => undefined);
      throw err;
    }
  }

  private async requireRoom(tx: EntityManager, accountId: string, size: number): Promise<void> {
    await rowsOf(tx, sql`select pg_advisory_xact_lock(hashtextextended(${`documents:${accountId}`}, 0))`);
    const [{ used }] = await rowsOf<Usage>(tx, sql`select coalesce(sum(size), 0) as used from documents where uploaded_by = ${accountId} and (expires_at is null or expires_at > now())`);
    if (Number(used) + size > this.quotaBytes) {
      throw DomainError.of(
        'payload_too_large',
        'storage_quota_exceeded',
        `the storage quota is ${this.quotaBytes} bytes per account; ${used} are in use, and this document has ${size}`,
      );
    }
  }

  /** GET /documents/{id}: public documents to anyone, private ones to their owners. */
  async get(ctx: RequestContext, id: string): Promise<DocumentView> {
    const document = await findLiveDocument(ctx.em, id);
    if (!document) throw notFoundDocument();
    // A private document read by anyone but an owner, anonymous callers included.
    if (document.documentType === 'private' && !(ctx.caller && document.owners?.includes(ctx.caller.accountId))) {
      throw unauthenticated('not_document_owner', 'this private document is readable by its owners only');
    }
    return { document, storageLink: await this.linkOf(document) };
  }

  /**
   * GET /documents?in=…: the named documents, in the order named; every one must be a private
   * document owned by the caller (an unknown, expired or public id is not), else 401 for the whole list.
   */
  async list(ctx: RequestContext, input: DocumentListInput): Promise<DocumentPage> {
    requireCaller(ctx);
    const page = input.page ?? 0;
    const size = input.size ?? DEFAULT_DOCUMENT_PAGE_SIZE;
    if (!Number.isInteger(page) || page < 0) throw invalid('invalid_page', 'page must be an integer from 0', { field: 'page' });
    if (!Number.isInteger(size) || size < 1 || size > 100) throw invalid('invalid_page', 'size must be an integer from 1 to 100', { field: 'size' });
    const owned = await this.owned(ctx, input.ids);
    return { items: owned.slice(page * size, (page + 1) * size), total: owned.length, page, size };
  }

  /**
   * The named documents (`ids`, each once, in the order named; at most MAX_LISTED_IDS), each a
   * private one the caller owns, else the whole list is refused: one statement.
   */
  async owned(ctx: RequestContext, input: readonly string[]): Promise<StoredDocument[]> {
    const caller = requireCaller(ctx);
    const ids = [...new Set(input)];
    if (ids.length === 0 || ids.length > MAX_LISTED_IDS) {
      throw invalid('invalid_parameter', `ids must name 1 to ${MAX_LISTED_IDS} documents`, { field: 'ids' });
    }
    const found = new Map((await findLiveDocuments(ctx.em, ids)).map((d) => [d.id, d]));
    // Only private documents owned by the caller are listed.
    const owned = (d: StoredDocument | undefined) => d?.documentType === 'private' && d.owners?.includes(caller.accountId);
    const foreign = ids.find((i) => !owned(found.get(i)));
    if (foreign !== undefined) {
      throw unauthenticated('not_document_owner', `the caller owns no document ${JSON.stringify(foreign)}`);
    }
    return ids.map((i) => found.get(i) as StoredDocument);
  }

  /** Deletes the rows and bytes of every expired document; answers how many rows went. */
  async purgeExpired(em: EntityManager): Promise<number> {
    let purged = 0;
    for (;;) {
      const now = new Date();
      const batch = await em.fork().find(StoredDocument, { expiresAt: { $lte: now } }, { fields: ['id'], limit: PURGE_BATCH, orderBy: { expiresAt: 'asc' } });
      if (batch.length === 0) return purged;
      // Bytes first: a row left behind by a failure is expired anyway (404) and retried next run.
      for (const { id } of batch) await this.storage.delete(id);
      purged += await em.fork().nativeDelete(StoredDocument, { id: { $in: batch.map((d) => d.id) }, expiresAt: { $lte: now } });
      if (batch.length < PURGE_BATCH) return purged;
    }
  }

  /** The bytes behind a link of the local storage (`GET /files/{id}`): 403 unless its signature holds. */
  async openLink(ctx: RequestContext, id: string, expires: string | undefined, signature: string | undefined): Promise<DocumentContent> {
    if (!(this.storage instanceof LocalStorage)) throw notFound('route_not_found', 'documents are served by the object store');
    const check = this.storage.signer.check(id, expires, signature);
    if (check === 'invalid') throw forbidden('storage_link_invalid', 'the link is not signed by this service');
    if (check === 'expired') throw forbidden('storage_link_expired', 'the link has expired; read the document again for a new one');
    const document = await findLiveDocument(ctx.em, id);
    const content = document ? await this.storage.open(id) : null;
    if (!document || !content) throw notFoundDocument();
    return { ...content, document };
  }

  private linkOf(document: StoredDocument): Promise<string> {
    return this.storage.link(document.id, { contentType: document.contentType, fileName: document.fileName }, this.linkTtl);
  }

  /**
   * The type of the bytes; 400 when it is not one of the four. What the client declares (the
   * part's header, the file name) is ignored: clients label files loosely.
   */
  private async contentTypeOf(input: UploadInput): Promise<keyof typeof DOCUMENT_TYPES> {
    if (input.file.length === 0) throw invalid('invalid_field', 'the file is empty', { field: 'file' });
    const detected = await detectType(input.file);
    if (!detected.contentType) {
      throw invalid('unsupported_file_type', `the content is ${detected.label}; allowed are ${Object.keys(DOCUMENT_TYPES).join(', ')}`, { field: 'file' });
    }
    return detected.contentType;
  }

  private async requireAccounts(em: EntityManager, ids: string[]): Promise<void> {
    const known = new Set((await em.find(Account, { id: { $in: ids } }, { fields: ['id'] })).map((a) => a.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) {
      throw invalid('owner_not_found', `no account ${unknown.join(', ')}`, { field: 'owners' });
    }
  }
}

/** The last path segment of the name the client gave, without control characters, at most 255 characters. */
function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter((ch) => ch.charCodeAt(0) > 0x1f && ch.charCodeAt(0) !== 0x7f).join('');
  return printable.trim().slice(0, 255);
}
