import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// docs/architecture.md "Layers", read off the source: services know no transport, edges are thin.
const MODULES = path.resolve(__dirname, '../../src/modules');
const EDGE = /\.(routes|resolver|types|presenter|schema)\.ts$/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

const sources = files(MODULES).map((file) => ({ file: path.relative(MODULES, file), text: readFileSync(file, 'utf8') }));
const imports = (text: string) => [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);

describe('the layers', () => {
  it('has module files to read', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.filter((s) => EDGE.test(s.file)).length).toBeGreaterThan(30);
  });

  it('keeps transports out of the domain: only a module’s edge files import rest/, graphql/, koa, type-graphql or Apollo', () => {
    const offenders = sources
      .filter((s) => !EDGE.test(s.file))
      .flatMap((s) => imports(s.text).filter((i) => /\/(rest|graphql)\/|^koa$|^@koa\/|^type-graphql$|^@apollo\//.test(i)).map((i) => `${s.file} imports ${i}`));
    expect(offenders).toEqual([]);
  });

  it('keeps rules and storage out of the edges: no edge file imports a policy or uses the entity manager', () => {
    const offenders = sources
      .filter((s) => EDGE.test(s.file))
      .flatMap((s) => [
        ...imports(s.text).filter((i) => /core\/policies$/.test(i)).map((i) => `${s.file} imports ${i}`),
        ...(/\bem\.(find|findOne|count|create|persist|flush|execute|getRepository)\b|EntityManager/.test(s.text) ? [`${s.file} uses the entity manager`] : []),
      ]);
    expect(offenders).toEqual([]);
  });

  it('keeps the GraphQL loaders on the services: src/graphql/loaders.ts reads through service methods alone, importing no module nor the entity manager', () => {
    const text = readFileSync(path.resolve(__dirname, '../../src/graphql/loaders.ts'), 'utf8');
    const offenders = [
      ...imports(text).filter((i) => /\/modules\/|@mikro-orm/.test(i)).map((i) => `imports ${i}`),
      ...(/\bem\.|EntityManager/.test(text) ? ['uses the entity manager'] : []),
    ];
    expect(offenders).toEqual([]);
  });

  it('names faults by domain field in services: no JSON pointer, query parameter or snake_case attribute', () => {
    const offenders = sources
      .filter((s) => !EDGE.test(s.file))
      .flatMap((s) => [...s.text.matchAll(/\{ (pointer|parameter|attribute): /g)].map((m) => `${s.file}: ${m[1]}`));
    expect(offenders).toEqual([]);
  });
});
