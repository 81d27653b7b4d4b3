import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** The files a source file imports, resolved to paths under src/ (packages as they are named). */
function importsOf(file: string): string[] {
  const specifiers = [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
  return specifiers.map((s) => (s.startsWith('.') ? path.relative(SRC, path.resolve(path.dirname(file), s)) : s));
}

// The GraphQL edges of a module: its resolvers and types (test/architecture checks the other layers).
const EDGE = /\.(resolver|types)\.ts$/;
const TRANSPORT = /^(graphql\/|live\/live\.(bus|transport|fanout)$)|^(graphql-ws|graphql-subscriptions|graphql-redis-subscriptions|ioredis|ws)$/;

describe('live delivery as infrastructure', () => {
  it('leaves the domain modules outside their edges with no import of graphql/ or of the transport', () => {
    const offending = sources(path.join(SRC, 'modules'))
      .filter((file) => !EDGE.test(file))
      .flatMap((file) => importsOf(file).filter((i) => TRANSPORT.test(i)).map((i) => `${path.relative(SRC, file)} → ${i}`));
    expect(offending).toEqual([]);
  });

  it('keeps src/live free of domain modules and of graphql/', () => {
    const offending = sources(path.join(SRC, 'live')).flatMap((file) =>
      importsOf(file)
        .filter((i) => /^(modules|graphql)\//.test(i))
        .map((i) => `${path.relative(SRC, file)} → ${i}`),
    );
    expect(offending).toEqual([]);
  });
});
