import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES } from '../../src/core/error-codes';
import { ERRORS_DOC, withErrorTable } from '../../src/core/error-docs';

const root = path.resolve(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** Codes thrown by the services and the plumbing, as written in the source. */
function codesInSource(): Set<string> {
  const patterns = [
    /\b(?:invalid|unauthenticated|forbidden|notFound|conflict)\(\s*'([a-z_]+)'/g,
    /DomainError\.of\(\s*'[a-z_]+',\s*'([a-z_]+)'/g,
    /\bcode: '([a-z_]+)'/g,
  ];
  const codes = new Set<string>();
  for (const file of sources(path.join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const re of patterns) for (const m of text.matchAll(re)) codes.add(m[1]);
    codes.delete('custom'); // zod's own issue code, never answered
  }
  return codes;
}

describe('the error code table (docs/errors.md, linked from the README)', () => {
  it('documents every code the service can answer', () => {
    const table = readFileSync(path.join(root, 'docs', 'errors.md'), 'utf8');
    const documented = new Set([...table.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
    const missing = [...codesInSource()].filter((c) => !documented.has(c));
    expect(missing).toEqual([]);
  });

  it('is what src/core/error-codes.ts generates (run `npm run docs:errors` after changing the table)', () => {
    const doc = readFileSync(path.join(root, ERRORS_DOC), 'utf8');
    expect(withErrorTable(doc)).toBe(doc);
  });

  it('holds every code the source answers', () => {
    const table = new Set<string>(ERROR_CODES.map((r) => r.code));
    expect([...codesInSource()].filter((c) => !table.has(c))).toEqual([]);
  });

  it('holds no code the source never answers', () => {
    // The table, and the kinds (some named as codes are), answer no code.
    const definitions = ['error-codes.ts', 'errors.ts'].map((name) => path.join(root, 'src', 'core', name));
    const text = sources(path.join(root, 'src'))
      .filter((file) => !definitions.includes(file))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    expect(ERROR_CODES.map((r) => r.code).filter((c) => !text.includes(`'${c}'`))).toEqual([]);
  });

  it('is linked from the README', () => {
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('(docs/errors.md)');
  });
});
