import { lintMessageSets } from './lint-probes';

// eslint.config.mjs "One way to the database": one transaction API, and the ORM's connection and
// transaction statements only in src/db.
const TRANSACTIONS: [string, string, number][] = [
  ['src/modules/lots/probe.ts', 'export const f = (em: any) => em.transactional(async () => 1);', 1],
  ['src/modules/lots/probe.ts', 'export const f = (em: any) => em.getConnection().getKnex().transaction(async () => 1);', 2],
  ['src/modules/lots/probe.ts', 'export const f = (em: any) => em.getKnex();', 1],
  ['src/auth/probe.ts', "export const s = [{ text: 'begin' }, { text: 'COMMIT' }];", 2],
  ['src/auth/probe.ts', 'export const s = [{ text: `start transaction isolation level serializable` }, { text: ` rollback` }];', 2],
  ['src/modules/lots/probe.ts', "export const s = 'savepoint a';", 1],
  ['src/modules/lots/probe.ts', "import { rawTransaction } from '../../db/raw';\nexport const f = rawTransaction;", 1],
  ['src/modules/bids/bids.service.ts', "import { rawTransaction } from '../../db/raw';\nexport const f = rawTransaction;", 0],
  ['src/modules/bids/bids.service.ts', "export const s = 'begin';", 1],
  ['src/db/probe.ts', "export const s = [{ text: 'begin' }]; export const f = (em: any) => em.getConnection().getKnex();", 0],
  ['src/modules/lots/probe.ts', "import { inTransaction } from '../../core/transaction';\nexport const f = inTransaction;\nexport const s = 'the beginning, committed';", 0],
];

// eslint.config.mjs DRIVER_PRIVATE: node-postgres' and knex's private fields, which any release may change.
const DRIVER_PRIVATE: [string, string, number][] = [
  ['src/db/probe.ts', 'export const f = (c: any) => c.connection.stream.destroy();', 1],
  ['src/modules/lots/probe.ts', 'export const f = (c: any) => c.connection.stream;', 1],
  ['src/core/transaction.ts', 'export const f = (c: any) => c.connection.stream;', 1],
  ['src/jobs/queue-db.ts', 'export const f = (c: any) => c.connection.stream;', 1],
  ['src/db/probe.ts', 'export const f = (c: any) => c._query(c, {});', 1],
  ['src/db/probe.ts', "export const f = (c: any) => c['_connecting'] || c.__knex__disposed;", 2],
  ['src/db/probe.ts', 'export class D { _query(): void {} _driver = 1; }', 2],
  ['src/db/probe.ts', 'export const f = ({ _queryQueue }: any) => _queryQueue;', 1],
  ['src/jobs/queue-db.ts', 'export const f = (pool: any) => pool._clients;', 1],
  ['src/db/probe.ts', 'export const f = (c: any, _unused: number) => c.connection.query(c.stream, c.query);', 0],
];

// eslint.config.mjs rows/declared: a row's shape is declared beside its table or statement.
const ROW_SHAPES: [string, string, number][] = [
  ['src/modules/lots/probe.ts', "import { rowsOf } from '../../db/query';\nexport const f = (em: any, q: any) => rowsOf<{ id: string }>(em, q);", 1],
  ['src/db/probe.ts', "import { rowsOf } from './query';\nexport const f = (em: any, q: any) => rowsOf<{ n: string } & { m: string }>(em, q);", 1],
  ['src/cli/probe.ts', "import { rowsOf } from '../db/query';\nexport const f = (em: any, q: any) => rowsOf<{ n: string }>(em, q);", 1],
  ['src/modules/lots/probe.ts', "import { rowsOf } from '../../db/query';\ninterface Row { id: string }\nexport const f = (em: any, q: any) => [rowsOf<Row>(em, q), rowsOf<Pick<Row, 'id'>>(em, q)];", 0],
];

// One ESLint process for the file's three sets (test/architecture/lint-probes.ts).
let counts: number[][] = [];
beforeAll(() => {
  counts = lintMessageSets([
    ['no-restricted-syntax', TRANSACTIONS],
    ['no-restricted-syntax', DRIVER_PRIVATE],
    ['rows/declared', ROW_SHAPES],
  ]);
});

describe('one way to the database', () => {
  it('refuses, outside src/db, another transaction API than inTransaction and the ORM connection', () => {
    expect(counts[0]).toEqual(TRANSACTIONS.map((p) => p[2]));
  });
});

describe("the driver's private fields", () => {
  it("refuses node-postgres' socket anywhere in src, and any `_`-prefixed member where the driver is reached", () => {
    expect(counts[1]).toEqual(DRIVER_PRIVATE.map((p) => p[2]));
  });
});

describe('row shapes', () => {
  it('refuses a row shape written inline at a call of rowsOf, and takes a declared one', () => {
    expect(counts[2]).toEqual(ROW_SHAPES.map((p) => p[2]));
  });
});
