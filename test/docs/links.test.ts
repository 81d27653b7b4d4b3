import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// A clone is all a user has: what the docs point at must be in it.
const root = path.resolve(__dirname, '..', '..');
const OUTSIDE = /INTERFACE\.md|PROTOCOL\.md|ARCHITECTURE\.md|shared\/spec|§/;
/** A tracker's issue number ("issue 31", "Issue 14's goals"): a reader of the repository cannot open it. */
const TRACKER = /\bissue #?\d+/i;

const docs = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`)];
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    return statSync(path.join(root, relative)).isDirectory() ? files(relative, ext) : ext.test(name) ? [relative] : [];
  });
}

/** `[text](target)` links to a file of the repository (not a URL, not an anchor of the same page). */
const relativeLinks = (text: string) =>
  [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^(https?:|mailto:|#)/.test(target)).map((target) => target.replace(/#.*$/, ''));

/** Paths of the repository named in the text (`docs/rest.md`, `src/auth/request-signer.ts`); not patterns (`docs/*.md`, `NAME.key`). */
const namedPaths = (text: string) => [...text.matchAll(/(?<![\w./-])((?:docs|src|test|schema|bench|scripts)\/[\w./-]*\w\.[a-z]+)\b/g)].map((m) => m[1]);

describe('the documentation', () => {
  it('is read from the repository', () => {
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'docs/rest.md', 'docs/architecture.md', 'docs/errors.md', 'docs/signing.md']));
  });

  it('names no document outside the repository', () => {
    const offenders = docs.flatMap((file) => read(file).split('\n').flatMap((line, i) => (OUTSIDE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
    expect(offenders).toEqual([]);
  });

  it('names no tracker issue, in the docs or in what the bench prints', () => {
    const sources = [...docs, ...files('bench', /\.mjs$/)];
    const offenders = sources.flatMap((file) => read(file).split('\n').flatMap((line, i) => (TRACKER.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
    expect(offenders).toEqual([]);
  });

  it('links only to files that exist', () => {
    const broken = docs.flatMap((file) => relativeLinks(read(file)).filter((target) => !existsSync(path.resolve(root, path.dirname(file), target))).map((target) => `${file} → ${target}`));
    expect(broken).toEqual([]);
  });

  it('names only paths that exist', () => {
    const missing = docs.flatMap((file) => namedPaths(read(file)).filter((named) => !existsSync(path.join(root, named))).map((named) => `${file}: ${named}`));
    expect(missing).toEqual([]);
  });

  it('catches what it is meant to catch', () => {
    expect(OUTSIDE.test('see PROTOCOL.md §3.1')).toBe(true);
    expect(['as issue 31 asks', "Issue 14's goals", 'issue #7'].every((text) => TRACKER.test(text))).toBe(true);
    expect(TRACKER.test('the issues of a lot, 31 of them')).toBe(false);
    expect(relativeLinks('[a](docs/none.md) [b](https://x.example/y) [c](#here) [d](rest.md#paging)')).toEqual(['docs/none.md', 'rest.md']);
    expect(namedPaths('`src/nowhere.ts`, docs/*.md, (docs/rest.md)')).toEqual(['src/nowhere.ts', 'docs/rest.md']);
  });
});

describe('what the service tells its users', () => {
  it('names no document outside the repository: CLI help, error details, OpenAPI and GraphQL descriptions', () => {
    const comment = /^\s*(\/\/|\/\*|\*)/;
    const sources = [...files('src', /\.(ts|html)$/), 'schema/schema.graphql'];
    const offenders = sources.flatMap((file) => read(file).split('\n').flatMap((line, i) => (OUTSIDE.test(line) && !comment.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
    expect(offenders).toEqual([]);
  });

  it("names none in the code's comments either: a reader of the source has only the repository", () => {
    const contract = /INTERFACE\.md|PROTOCOL\.md|ARCHITECTURE\.md|shared\/spec/;
    const sources = ['src', 'test', 'bench', 'scripts'].flatMap((dir) => files(dir, /\.(ts|mjs|js|html)$/)).filter((file) => file !== 'test/docs/links.test.ts');
    const offenders = sources.flatMap((file) => read(file).split('\n').flatMap((line, i) => (contract.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
    expect(offenders).toEqual([]);
  });
});
