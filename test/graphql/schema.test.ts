import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildAppSchema, printAppSchema, SCHEMA_FILE } from '../../src/graphql/schema';

describe('schema/schema.graphql', () => {
  it('is what the code builds (run `npm run schema:emit` after changing the schema)', () => {
    const committed = readFileSync(path.resolve(__dirname, '..', '..', SCHEMA_FILE), 'utf8');
    expect(printAppSchema(buildAppSchema())).toBe(committed);
  });
});
