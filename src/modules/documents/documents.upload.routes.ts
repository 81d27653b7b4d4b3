import { createHash } from 'node:crypto';
import multer from '@koa/multer';
import type { Context } from 'koa';
import { parseSignatureParams } from '../../auth/signature';
import type { RequestContext } from '../../core/context';
import { DomainError, invalid, unauthenticated } from '../../core/errors';

/** An upload as the form carries it: the file part's bytes and name, and the `file[attributes]` document. */
export interface ReceivedUpload {
  bytes: Buffer;
  fileName: string;
  attributes: Record<string, unknown>;
}

/** Room for the multipart framing and the attributes around a file of the largest size. */
const FRAMING = 64 * 1024;

/**
 * Reads `multipart/form-data` with `file` and `file[attributes]`, holding
 * at most `limit` bytes of file (413 beyond, while streaming). The JSON body reader leaves
 * multipart to this route, so the signature's digest is checked here, over the bytes received.
 */
export async function readUpload(koa: Context, ctx: RequestContext, limit: number, legacySignatures: boolean): Promise<ReceivedUpload> {
  if (koa.request.type !== 'multipart/form-data') {
    throw DomainError.of('unsupported_media_type', 'unsupported_media_type', 'POST /documents takes multipart/form-data', { header: 'Content-Type' });
  }
  const tooLarge = () => DomainError.of('payload_too_large', 'file_too_large', `the file exceeds ${limit} bytes`, { pointer: '/file' });
  if ((koa.request.length ?? 0) > limit + FRAMING) throw tooLarge();

  const hash = createHash('sha256');
  koa.req.on('data', (chunk: Buffer) => hash.update(chunk));
  // File names are UTF-8 (multer's default reads them as latin1); its types lack the option.
  const options: multer.Options & { defParamCharset: string } = {
    storage: multer.memoryStorage(),
    limits: { fileSize: limit, files: 1, fields: 4, fieldSize: FRAMING, parts: 5 },
    defParamCharset: 'utf8',
  };
  const upload = multer(options);
  try {
    await upload.single('file')(koa, async () => undefined);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'LIMIT_FILE_SIZE') throw tooLarge();
    if (code === 'LIMIT_UNEXPECTED_FILE') throw invalid('invalid_field', 'the only file part is named file', { pointer: '/file' });
    if (typeof code === 'string' && code.startsWith('LIMIT_')) throw invalid('invalid_field', `the form has too many or too large parts (${code})`);
    throw invalid('body_unreadable', 'the multipart body could not be read');
  }
  requireDigest(koa, ctx, hash.digest('base64'), legacySignatures);

  const file = koa.request.file;
  if (!file) throw invalid('missing_field', 'the form needs a file part named file', { pointer: '/file' });
  return { bytes: file.buffer, fileName: file.originalname, attributes: attributesOf((koa.request as { body?: unknown }).body) };
}

/** A signed upload must sign `digest`, and it must match the body (docs/signing.md). */
function requireDigest(koa: Context, ctx: RequestContext, sha256: string, legacySignatures: boolean): void {
  if (ctx.caller?.via !== 'signature') return;
  const authorization = koa.get('authorization');
  const value = koa.get('signature') || (authorization.startsWith('Signature ') ? authorization.slice(10) : '');
  const signed = parseSignatureParams(value)?.headers ?? [];
  if (legacySignatures && signed.length === 1) return;
  if (!signed.includes('digest')) throw unauthenticated('digest_mismatch', 'a request with a body must sign digest');
  if (koa.get('digest') !== `SHA-256=${sha256}`) throw unauthenticated('digest_mismatch', 'digest does not match the body received');
}

/** `file[attributes]` as JSON; multer nests bracketed field names (`{file: {attributes}}`). */
function attributesOf(body: unknown): Record<string, unknown> {
  const fields = (body ?? {}) as Record<string, unknown>;
  const raw = (fields.file as Record<string, unknown> | undefined)?.attributes ?? fields['file[attributes]'];
  if (raw === undefined) throw invalid('missing_field', 'the form needs a file[attributes] field', { pointer: '/data/attributes' });
  if (typeof raw !== 'string') throw invalid('invalid_field', 'file[attributes] must be one JSON object', { pointer: '/data/attributes' });
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    /* answered below */
  }
  throw invalid('invalid_field', 'file[attributes] must be a JSON object', { pointer: '/data/attributes' });
}
