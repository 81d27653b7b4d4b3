import fc from 'fast-check';
import { FILES } from '../../documents/documents.helpers';
import { anyJson, unicodeText } from './bad-values';
import type { Case } from './rest-cases';

/** The upload limit the walk runs with: small, so that parts beyond it are cheap to send. */
export const UPLOAD_LIMIT = 64 * 1024;

const BOUNDARY = 'hardening-boundary';

interface Part {
  name: string;
  fileName?: string;
  bytes: Buffer;
}

function form(parts: readonly Part[]): Buffer {
  const chunks = parts.flatMap((p) => [
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.fileName === undefined ? '' : `; filename="${p.fileName}"`}\r\n\r\n`),
    p.bytes,
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

const goodAttributes = Buffer.from(JSON.stringify({ document_type: 'private' }));

/**
 * Uploads POST /documents must refuse: a file beyond the limit, a type outside the four, no file,
 * a second file or part of another name, attributes that are no JSON object or hold bad values,
 * a body that is no multipart form at all.
 */
export function multipartCases(): Record<string, fc.Arbitrary<Case>> {
  const upload = (parts: readonly Part[]): Case => ({ family: 'multipart', target: '/documents', raw: form(parts), contentType: `multipart/form-data; boundary=${BOUNDARY}`, signer: 'user' });
  const file = (bytes: Buffer): Part => ({ name: 'file', fileName: 'a.pdf', bytes });
  const attributes = (bytes: Buffer): Part => ({ name: 'file[attributes]', bytes });
  return {
    oversized: fc.integer({ min: UPLOAD_LIMIT + 1, max: UPLOAD_LIMIT * 3 }).map((size) => upload([attributes(goodAttributes), file(Buffer.concat([FILES.pdf, Buffer.alloc(size - FILES.pdf.length, 0x20)]))])),
    type: fc.oneof(fc.constantFrom(FILES.elf, FILES.exe, Buffer.from('plain text'), Buffer.alloc(0)), fc.uint8Array({ minLength: 1, maxLength: 300 }).map((a) => Buffer.from(a))).map((bytes) => upload([attributes(goodAttributes), file(bytes)])),
    parts: fc.constantFrom(
      [attributes(goodAttributes)],
      [file(FILES.pdf)],
      [attributes(goodAttributes), file(FILES.pdf), file(FILES.png)],
      [attributes(goodAttributes), { name: 'other', fileName: 'a.pdf', bytes: FILES.pdf }],
      [attributes(goodAttributes), attributes(goodAttributes), { name: 'x', bytes: Buffer.from('1') }, { name: 'y', bytes: Buffer.from('1') }, file(FILES.pdf)],
    ).map(upload),
    attributes: fc
      .oneof(
        fc.constantFrom('', '{', 'null', '[]', '"x"', '1'),
        fc.record({ document_type: fc.oneof(unicodeText, anyJson) }).map((a) => JSON.stringify(a)),
        fc.record({ document_type: fc.constant('private'), owners: fc.oneof(anyJson, fc.array(unicodeText, { minLength: 1 }), fc.constant(Array(1000).fill('GA'))) }).map((a) => JSON.stringify(a)),
        fc.record({ document_type: fc.constant('private'), expires: fc.oneof(unicodeText, anyJson, fc.constantFrom('-1d', '0d', '99999999999d', '1.5d', '30x')) }).map((a) => JSON.stringify(a)),
        fc.constant(JSON.stringify({ document_type: 'private\u0000' })),
      )
      .map((text) => upload([attributes(Buffer.from(text)), file(FILES.pdf)])),
    framing: fc.oneof(fc.constantFrom('--x', '', `--${BOUNDARY}\r\n`, `--${BOUNDARY}--`), fc.string({ maxLength: 100 })).map((text) => ({
      ...upload([]),
      raw: Buffer.from(text || ' '),
    })),
  };
}
