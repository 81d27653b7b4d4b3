import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { lintMessages } from './lint-probes';
import ts from 'typescript';

// docs/architecture.md "Borders", read off the source with the compiler's own import scanner.
const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');
const MODULES = path.join(SRC, 'modules');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : /\.m?ts$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}.mts`, path.join(base, 'index.ts')].find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

const areaOf = (file: string): string | null => {
  const rel = path.relative(MODULES, file);
  return rel.startsWith('..') || !rel.includes(path.sep) ? null : rel.split(path.sep)[0];
};
const rel = (file: string) => path.relative(ROOT, file);

/** Every relative import, re-export and dynamic import of src/, resolved to its file. */
const imports = files(SRC).flatMap((from) =>
  ts
    .preProcessFile(readFileSync(from, 'utf8'), true, true)
    .importedFiles.map((i) => resolveImport(from, i.fileName))
    .filter((to): to is string => to !== null)
    .map((to) => ({ from, to })),
);

/** Tarjan's strongly connected components: the sets of areas that reach each other. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the module borders', () => {
  const areas = readdirSync(MODULES, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

  it('reads the imports of every area', () => {
    expect(areas.length).toBeGreaterThan(20);
    expect(imports.filter((i) => areaOf(i.to) && areaOf(i.from) !== areaOf(i.to)).length).toBeGreaterThan(100);
  });

  it('gives every area a public face: src/modules/<area>/index.ts', () => {
    expect(areas.filter((a) => !existsSync(path.join(MODULES, a, 'index.ts')))).toEqual([]);
  });

  it('lets nothing outside an area import another file of it than its index.ts', () => {
    const listing = path.join(MODULES, 'index.ts');
    const deep = imports
      .filter(({ from, to }) => areaOf(to) && areaOf(from) !== areaOf(to) && path.basename(to) !== 'index.ts')
      .filter(({ from, to }) => !(from === listing && to.endsWith('.module.ts')))
      .map(({ from, to }) => `${rel(from)} -> ${rel(to)}`);
    expect(deep).toEqual([]);
  });

  it('keeps src/core the shared kernel: it imports no area', () => {
    const core = path.join(SRC, 'core') + path.sep;
    expect(imports.filter(({ from, to }) => from.startsWith(core) && areaOf(to)).map(({ from, to }) => `${rel(from)} -> ${rel(to)}`)).toEqual([]);
  });

  it('keeps src/jobs the queue that runs what the areas declare: no area imports it', () => {
    const jobs = path.join(SRC, 'jobs') + path.sep;
    expect(imports.filter(({ from, to }) => areaOf(from) && to.startsWith(jobs)).map(({ from, to }) => `${rel(from)} -> ${rel(to)}`)).toEqual([]);
  });

  it('lets the areas import one another in no cycle', () => {
    const graph = new Map<string, Set<string>>(areas.map((a) => [a, new Set()]));
    for (const { from, to } of imports) {
      const [a, b] = [areaOf(from), areaOf(to)];
      if (a && b && a !== b) graph.get(a)!.add(b);
    }
    expect(cycles(graph)).toEqual([]);
  });

  it('refuses a deep import at lint time, and an area in src/core', () => {
    const probes: [string, string, number][] = [
      ['src/modules/bids/probe.ts', "export type { Lot } from '../lots/lots.entity';", 1],
      ['src/modules/bids/migrations/probe.ts', "export type { Lot } from '../../lots/lots.entity';", 1],
      ['src/graphql/probe.ts', "export type { Lot } from '../modules/lots/lots.entity';", 1],
      ['src/probe.ts', "export type { Lot } from './modules/lots/lots.entity';", 1],
      ['src/modules/index.ts', "export type { Lot } from './lots/lots.entity';", 1],
      ['src/core/probe.ts', "export type { Lot } from '../modules/lots';", 1],
      ['src/modules/bids/probe.ts', "export type { Lot } from '../lots';\nexport type { Money } from '../../core/money';", 0],
      ['src/graphql/probe.ts', "export type { Lot } from '../modules/lots';", 0],
      ['src/modules/index.ts', "export { lotsModule } from './lots/lots.module';", 0],
    ];
    expect(lintMessages('no-restricted-imports', probes)).toEqual(probes.map((p) => p[2]));
  });

  it('is described as it is: docs/architecture.md lists every area and top-level folder of src/, and no other', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const section = (title: string) => {
      const start = doc.indexOf(`\n## ${title}\n`);
      expect(start).toBeGreaterThan(-1);
      const end = doc.indexOf('\n## ', start + 1);
      return doc.slice(start, end === -1 ? undefined : end);
    };
    // The names in the first column of a section's table.
    const firstColumn = (title: string) =>
      section(title)
        .split('\n')
        .filter((l) => l.startsWith('| `'))
        .map((l) => /^\| `([^`]+)`/.exec(l)![1])
        .sort();
    expect(firstColumn('Areas')).toEqual([...areas].sort());
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'modules')
      .map((e) => `src/${e.name}`)
      .sort();
    expect(firstColumn('Folders')).toEqual(folders);
  });
});
