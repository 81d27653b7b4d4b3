import { z } from 'zod';

const ACCOUNT_ID = /^G[A-Z2-7]{55}$/;
/** Our ids: 22 random URL-safe characters and the extension of the detected type. */
export const DOCUMENT_ID = /^[A-Za-z0-9_-]{22}\.(pdf|png|jpg|html)$/;
export const MAX_OWNERS = 100;
export const MAX_LISTED_IDS = 1000;
export const DEFAULT_DOCUMENT_PAGE_SIZE = 10;

/** `file[attributes]` of POST /documents (INTERFACE.md §4.10). */
export const uploadAttributes = z.object({
  document_type: z.enum(['public', 'private'], { error: 'must be public or private' }),
  owners: z.array(z.string().regex(ACCOUNT_ID, 'must be account ids (G…)')).max(MAX_OWNERS).nullable().optional(),
  expires: z
    .string()
    .regex(/^[1-9]\d{0,4}d$/, 'must be a number of days followed by d, e.g. 30d')
    .nullable()
    .optional(),
});

export type UploadAttributes = z.infer<typeof uploadAttributes>;

/** An upload as the REST edge hands it over: the bytes, the part's file name, the attributes unparsed. */
export interface UploadInput {
  bytes: Buffer;
  fileName: string;
  attributes: unknown;
}

export interface DocumentListInput {
  ids: string[];
  page?: number;
  size?: number;
}
