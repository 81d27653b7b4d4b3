import type { Keypair } from '@stellar/stellar-sdk';
import { signEd25519 } from './keys';
import { bodyDigest, signingDigest, signingString } from './signature';

export interface SignOptions {
  keypair: Keypair;
  /** The keyId to claim; the keypair's own public key by default. */
  keyId?: string;
  /** Header names to sign, in order; by default (request-target), the date header and, with a body, digest. */
  headers?: string[];
  /** Header carrying the time: x-date (RFC 3339 with milliseconds, so that quick identical writes differ) by default. */
  dateHeader?: 'date' | 'x-date';
  /** The signing time; now by default. */
  at?: Date;
  /** Put the parameters in `Authorization: Signature …` instead of `Signature`. */
  viaAuthorization?: boolean;
}

/**
 * Adds the signature of docs/signing.md to `headers` (lowercase names) of a request about to be
 * sent, with the date and digest headers it signs. The signing string is the one the service
 * verifies (./signature.ts), so client and server cannot drift apart.
 */
export function signHeaders(method: string, target: string, headers: Record<string, string>, body: Buffer | null, opts: SignOptions): void {
  const at = opts.at ?? new Date();
  const dateHeader = opts.dateHeader ?? 'x-date';
  headers[dateHeader] ??= dateHeader === 'date' ? at.toUTCString() : at.toISOString();
  const hasBody = body !== null && body.length > 0;
  if (hasBody) headers.digest ??= bodyDigest(body);
  const names = opts.headers ?? ['(request-target)', dateHeader, ...(hasBody ? ['digest'] : [])];
  const text = signingString({ method, target, header: (name) => headers[name] }, names);
  const signature = signEd25519(opts.keypair, signingDigest(text)).toString('base64');
  const value = `keyId="${opts.keyId ?? opts.keypair.publicKey()}",algorithm="ed25519-sha256",headers="${names.join(' ')}",signature="${signature}"`;
  if (opts.viaAuthorization) headers.authorization = `Signature ${value}`;
  else headers.signature = value;
}
