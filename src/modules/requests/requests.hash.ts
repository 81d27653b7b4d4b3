import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { LotDraft } from '../lots';

/** The review hash: lowercase hex SHA-256 of the RFC 8785 (JCS) form of the body. */
export function requestHash(body: LotDraft): string {
  return createHash('sha256').update(canonicalize(body) as string, 'utf8').digest('hex');
}
