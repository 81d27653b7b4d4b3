import { createHash } from 'node:crypto';
import { unauthenticated } from '../core/errors';

export interface SignatureParams {
  keyId: string;
  algorithm: string;
  headers: string[];
  signature: Buffer;
}

const PARAM = /\s*([a-zA-Z]+)="([^"]*)"\s*(?:,|$)/y;

/** Parses `keyId="…",algorithm="…",headers="…",signature="…"`; null when malformed. */
export function parseSignatureParams(value: string): SignatureParams | null {
  const params = new Map<string, string>();
  PARAM.lastIndex = 0;
  while (PARAM.lastIndex < value.length) {
    const start = PARAM.lastIndex;
    const m = PARAM.exec(value);
    if (!m || PARAM.lastIndex === start) return null;
    if (params.has(m[1])) return null;
    params.set(m[1], m[2]);
  }
  const keyId = params.get('keyId');
  const algorithm = params.get('algorithm');
  const signature = params.get('signature');
  if (!keyId || !algorithm || !signature || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return null;
  const headers = (params.get('headers') ?? '(request-target)').toLowerCase().split(/\s+/).filter(Boolean);
  return { keyId, algorithm, headers, signature: Buffer.from(signature, 'base64') };
}

export interface SignedRequest {
  method: string;
  /** Path and query exactly as sent. */
  target: string;
  header(name: string): string | undefined;
}

/** The lines `name: value` for each signed header, in order, joined by `\n`. */
export function signingString(req: SignedRequest, headers: string[]): string {
  return headers
    .map((name) => {
      if (name === '(request-target)') return `(request-target): ${req.method.toLowerCase()} ${req.target}`;
      const value = req.header(name);
      if (value === undefined) throw unauthenticated('signature_invalid', `signed header ${name} is missing`);
      return `${name}: ${value}`;
    })
    .join('\n');
}

/** What is actually signed with ed25519: the SHA-256 digest of the signing string. */
export function signingDigest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

export function bodyDigest(body: Buffer): string {
  return `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
}

const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Milliseconds since the epoch of an IMF-fixdate or RFC 3339 date; null when neither. */
export function parseSignatureDate(value: string): number | null {
  if (!IMF_FIXDATE.test(value) && !RFC3339.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}
