import { ERROR_CODES } from './error-codes';

export const ERRORS_DOC = 'docs/errors.md';

/** The table sits between these lines; the prose around it is written in the file itself. */
const START = '<!-- The table below is generated from src/core/error-codes.ts by `npm run docs:errors`: edit it there. -->';
const END = '<!-- End of the generated table. -->';

function table(): string {
  const rows = ERROR_CODES.map((r) => `| \`${r.code}\` | ${r.status} | ${r.meaning} |`);
  return ['| Code | Status | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** `doc` (the text of docs/errors.md) with its table replaced by the one the code table makes. */
export function withErrorTable(doc: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${ERRORS_DOC} has lost the lines that delimit its generated table`);
  return `${doc.slice(0, start)}${START}\n\n${table()}\n\n${doc.slice(end)}`;
}
