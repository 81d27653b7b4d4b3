import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// `npm run bench` runs against dist/ and is not part of `npm test`: a name that moved between
// modules (as AccountType moved to the core with the borders) broke it unnoticed for days. Every
// name a bench takes from dist/ must still be exported there (`npm test` builds dist/ first).
const BENCH = path.resolve(__dirname, '../../bench');
const REQUIRE = /const \{([^}]*)\} = require\('(\.\.\/dist\/[^']+)'\)/g;

const taken = readdirSync(BENCH)
  .filter((f) => f.endsWith('.mjs'))
  .flatMap((file) =>
    [...readFileSync(path.join(BENCH, file), 'utf8').matchAll(REQUIRE)].flatMap(([, names, target]) =>
      names
        .split(',')
        .map((n) => n.split(':')[0].trim())
        .filter(Boolean)
        .map((name) => ({ file, target, name })),
    ),
  );

describe('the benches take from dist/ only what it exports', () => {
  it('finds the names the benches require', () => {
    expect(taken.length).toBeGreaterThan(20);
  });

  it.each(taken)('$file: $name from $target', ({ target, name }) => {
    const exported = require(path.join(BENCH, target)) as Record<string, unknown>;
    expect(exported[name]).toBeDefined();
  });
});
