/** The content types a document may have and the id extension of each. */
export const DOCUMENT_TYPES = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'text/html': 'html',
} as const;

export type DocumentContentType = keyof typeof DOCUMENT_TYPES;

export interface Detected {
  /** One of DOCUMENT_TYPES, or null when the bytes are of another (or no known) type. */
  contentType: DocumentContentType | null;
  /** What the bytes were recognised as, for the error message (`elf`, `exe`, …). */
  label: string;
}

type FileTypeCore = typeof import('file-type/core', { with: { 'resolution-mode': 'import' } });
let fileType: Promise<FileTypeCore> | null = null;

/**
 * file-type is published as ES modules only. This CommonJS build loads it with a dynamic
 * import, which swc turns into `require` (Node 20.19+ loads ES modules through require), and
 * jest transforms the package (jest.config.js).
 */
function loadFileType(): Promise<FileTypeCore> {
  fileType ??= import('file-type/core');
  return fileType;
}

/**
 * The type of the bytes, from their magic numbers; the client's declared type is never trusted.
 * HTML has no magic number, so it is recognised only when file-type knows nothing of the bytes
 * and they are UTF-8 text, without NUL, that opens with a doctype or an html element.
 */
export async function detectType(bytes: Buffer): Promise<Detected> {
  const found = await (await loadFileType()).fileTypeFromBuffer(bytes);
  if (found) {
    const contentType = found.mime in DOCUMENT_TYPES ? (found.mime as DocumentContentType) : null;
    return { contentType, label: found.ext };
  }
  return looksLikeHtml(bytes) ? { contentType: 'text/html', label: 'html' } : { contentType: null, label: 'unknown' };
}

const HTML_OPENING = /^(?:<!doctype\s+html[\s>]|<html[\s>])/i;
/** How far into a file its HTML opening is looked for. */
const HTML_LOOKAHEAD = 4096;

/**
 * Text (UTF-8, no NUL) that opens with a doctype or an <html> tag, after an optional BOM,
 * whitespace and comments. Scanned in one pass: a regular expression over repeated comments
 * backtracks exponentially on crafted input.
 */
function looksLikeHtml(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).slice(0, HTML_LOOKAHEAD);
  } catch {
    return false;
  }
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at])) at++;
    if (!text.startsWith('<!--', at)) break;
    const end = text.indexOf('-->', at + 4);
    if (end < 0) return false;
    at = end + 3;
  }
  return HTML_OPENING.test(text.slice(at));
}
