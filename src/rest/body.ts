import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { DomainError, invalid } from '../core/errors';
import { scanInput } from '../core/input-scan';

const JSON_TYPES = new Set(['application/json', 'application/vnd.api+json']);

export interface BodyState {
  /** The bytes received (for the signature digest), null when the request has none. */
  rawBody: Buffer | null;
  /** The parsed JSON document, undefined when there is no JSON body. */
  body: unknown;
}

const unsupported = (detail: string, header: string) => DomainError.of('unsupported_media_type', 'unsupported_media_type', detail, { header });

/**
 * Reads JSON bodies whole (bounded) so that the signature digest covers exactly the bytes
 * received. Multipart bodies are left to the routes that accept them (POSTs to `multipartPaths`).
 */
export function readBody(limit: number, multipartPaths: ReadonlySet<string>): Middleware<BodyState> {
  return async (koa, next) => {
    koa.state.rawBody = null;
    koa.state.body = undefined;
    const length = koa.request.length;
    const hasBody = (length !== undefined && length > 0) || koa.get('transfer-encoding') !== '';
    if (!hasBody) return next();

    const type = koa.request.type;
    // Multipart only where an upload is taken (docs/rest.md, "Documents"): elsewhere it is refused as any other type.
    if (type === 'multipart/form-data' && koa.method === 'POST' && multipartPaths.has(koa.path)) return next();
    if (!JSON_TYPES.has(type)) throw unsupported(`content type ${type || '(none)'} is not accepted; send application/vnd.api+json`, 'Content-Type');
    // The bytes are read as UTF-8 JSON as they came: a compressed or UTF-16 body would otherwise be
    // answered as malformed JSON, which misleads its sender about what to fix (RFC 9110 §15.5.16).
    const encoding = koa.get('content-encoding').trim().toLowerCase();
    if (encoding !== '' && encoding !== 'identity') throw unsupported(`content encoding ${encoding} is not accepted; send the body uncompressed`, 'Content-Encoding');
    const charset = koa.request.charset.toLowerCase();
    if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') throw unsupported(`charset ${charset} is not accepted; send the body in UTF-8`, 'Content-Type');
    let raw: Buffer;
    try {
      raw = await getRawBody(koa.req, { limit, length });
    } catch (err) {
      if ((err as { type?: string }).type === 'entity.too.large') {
        throw DomainError.of('payload_too_large', 'body_too_large', `the body exceeds ${limit} bytes`);
      }
      throw invalid('body_unreadable', 'the request body could not be read');
    }
    koa.state.rawBody = raw;
    try {
      koa.state.body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw invalid('malformed_json', 'the request body is not valid JSON', { pointer: '' });
    }
    const nul = scanInput(koa.state.body);
    if (nul) {
      const pointer = nul.path.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
      throw invalid('nul_character', `${pointer || 'the body'} holds a NUL character (U+0000)`, { pointer });
    }
    return next();
  };
}
