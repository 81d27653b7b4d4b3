import { z } from 'zod';
import { ACCOUNT_ID } from '../../core/ids';
import type { Untrusted } from '../../core/validate';

/** Our ids: 22 random URL-safe characters and the extension of the detected type. */
export const DOCUMENT_ID = /^[A-Za-z0-9_-]{22}\.(pdf|png|jpg|html)$/;
export const MAX_OWNERS = 100;
export const MAX_LISTED_IDS = 1000;
export const DEFAULT_DOCUMENT_PAGE_SIZE = 10;

/** POST /documents: what is said about the file. */
export const uploadFields = z.object({
  documentType: z.enum(['public', 'private'], { error: 'must be public or private' }),
  owners: z.array(z.string().regex(ACCOUNT_ID, 'must be account ids (G…)')).max(MAX_OWNERS).nullable().optional(),
  expires: z
    .string()
    .regex(/^[1-9]\d{0,4}d$/, 'must be a number of days followed by d, e.g. 30d')
    .nullable()
    .optional(),
});

/** An upload: the bytes, the name the client gave them, and what it says about them. */
export type UploadInput = { file: Buffer; fileName: string } & Untrusted<z.input<typeof uploadFields>>;

/** GET /documents?in=…: the named documents, a page of them. */
export interface DocumentListInput {
  ids: string[];
  page?: number;
  size?: number;
}
