import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, NoDeprecatedCustomRule, parse, specifiedRules, validate } from 'graphql';

// The README's GraphQL examples are what a newcomer copies first: each must be valid against the
// committed schema, and use no deprecated field, whose replacement the newcomer would have to find.
const root = path.join(__dirname, '../..');
const schema = buildSchema(readFileSync(path.join(root, 'schema/schema.graphql'), 'utf8'));
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** The documents of the README: each `"query": "…"` of a request body (JSON-escaped), and each `query: '…'` of the JavaScript example. */
const documents = [
  ...[...readme.matchAll(/"query": ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1].replace(/\\\\/g, '\\')) as string),
  ...[...readme.matchAll(/query: '([^']*)'/g)].map((m) => m[1]),
];

it('finds the README examples: a query, a mutation and a subscription', () => {
  expect(documents.map((d) => d.trim().split(/[\s{(]/)[0] || 'query')).toEqual(['query', 'mutation', 'subscription']);
});

it.each(documents)('validates %s against the schema, without deprecated fields', (document) => {
  expect(validate(schema, parse(document), [...specifiedRules, NoDeprecatedCustomRule]).map((e) => e.message)).toEqual([]);
});
