import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import graphql from '@graphql-eslint/eslint-plugin';

// Module borders (docs/architecture.md "Borders"): outside src/modules/<area>/ only its index.ts is
// imported, and src/core imports no area. The specifiers are relative, so each depth of folder gets
// the pattern that reaches past an area's index from there. src/modules/index.ts lists the areas'
// <area>.module.ts files, the one deep import allowed.
const pastIndex = (regex) => ({ regex, message: "import another area through its index.ts (src/modules/<area>), not one of its files: see docs/architecture.md" });
const borders = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

// What no file outside src/db may do to the database (the block "One way to the database" below).
const TRANSACTION_TEXT = '/^\\s*(begin|start\\s+transaction|commit|rollback|savepoint|release\\s+savepoint)\\b/i';
const ONE_WAY = [
  { selector: "CallExpression[callee.property.name='getConnection']", message: 'Run a statement with rowsOf or changedBy (src/db/query.ts), built with sql (src/db/sql.ts).' },
  { selector: "MemberExpression[property.name='getKnex']", message: 'knex is the ORM\'s: run a statement with rowsOf or changedBy (src/db/query.ts).' },
  { selector: "CallExpression[callee.property.name='transactional']", message: 'Open a transaction with inTransaction (src/core/transaction.ts).' },
  { selector: `Literal[value=${TRANSACTION_TEXT}]`, message: 'Open a transaction with inTransaction (src/core/transaction.ts); statements of their own transaction are alone() of src/db/raw.ts.' },
  { selector: `TemplateElement[value.raw=${TRANSACTION_TEXT}]`, message: 'Open a transaction with inTransaction (src/core/transaction.ts); statements of their own transaction are alone() of src/db/raw.ts.' },
];
// node-postgres' and knex's private fields (its socket, `_`-prefixed members) change with any release
// and bypass what their public API keeps consistent: src/db reaches them through public options only
// (sessions.ts keeps the socket it gives each client).
const DRIVER_SOCKET = { selector: "MemberExpression[property.name='stream'][object.property.name='connection']", message: "node-postgres' socket is private: keep the one given to the client through its `stream` option (src/db/sessions.ts)." };
// So are any library's `_`-prefixed members, anywhere in src (issue 29): Node's `socket._httpMessage`,
// ws's `_socket`, @koa/router's `ctx._matchedRoute` each have a public way (a response's `req.socket`,
// the upgrade request's `socket`, `ctx.routerPath`), and our own code names no member so. GraphQL's
// `__schema` and `__typename` are the specification's own names, public.
const UNDERSCORED = 'a `_`-prefixed member is private to its library (node-postgres, knex, Node, ws, @koa/router): use its public API or options.';
const PRIVATE = '/^_(?!_(schema|typename)$)/';
const PRIVATE_MEMBERS = [
  { selector: `MemberExpression[property.name=${PRIVATE}]`, message: UNDERSCORED },
  { selector: `MemberExpression[property.value=${PRIVATE}]`, message: UNDERSCORED },
  { selector: ':matches(MethodDefinition, PropertyDefinition)[key.name=/^_/]', message: UNDERSCORED },
  { selector: 'ObjectPattern > Property[key.name=/^_/]', message: UNDERSCORED },
];
const DRIVER_PRIVATE = [DRIVER_SOCKET, ...PRIVATE_MEMBERS];
const RAW_TRANSACTION = { selector: "ImportSpecifier[imported.name='rawTransaction']", message: 'Open a transaction with inTransaction (src/core/transaction.ts): the pipelined one is the bid round\'s.' };

// A row's shape is declared once, beside the table or the statement that owns it (participants.columns.ts,
// an interface beside a computed select list), never cast by hand at a call of rowsOf.
const rows = {
  rules: {
    declared: {
      meta: { type: 'problem', schema: [] },
      create: (context) => ({
        "CallExpression[callee.name='rowsOf'] > TSTypeParameterInstantiation:has(TSTypeLiteral)"(node) {
          context.report({ node, message: "Declare the row's shape beside its table or statement (a *.columns.ts interface, a Pick of one) and name it here." });
        },
      }),
    },
  },
};

// The committed schema (npm run schema:emit) held to the Relay connection spec and the naming rules;
// what the plugin cannot see (a deprecation naming a real field, payload mutations) stays in
// test/graphql/schema-lint.test.ts.
const SCHEMA_FILES = ['schema/**/*.graphql'];
const LEGACY_ENUM = 'EnumTypeDefinition[name.value="LotSortKey"] > EnumValueDefinition';
const schemaLint = {
  files: SCHEMA_FILES,
  languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig: { schema: 'schema/schema.graphql' } } },
  plugins: { '@graphql-eslint': graphql },
  rules: {
    '@graphql-eslint/relay-connection-types': 'error',
    // Some connections page rows that are no Node, so `shouldImplementNode` stays off: a log's leaves
    // (named by index and hash), a watchlist's and a lot's stars and the blacklist (an account and a lot,
    // or an account: no id of their own). Plain lists stay (userErrors, bounded rows).
    '@graphql-eslint/relay-edge-types': ['error', { withEdgeSuffix: true, shouldImplementNode: false, listTypeCanWrapOnlyEdgeType: false }],
    '@graphql-eslint/relay-page-info': 'error',
    '@graphql-eslint/relay-arguments': ['error', { includeBoth: true }],
    '@graphql-eslint/naming-convention': ['error', {
      types: 'PascalCase',
      FieldDefinition: 'camelCase',
      InputValueDefinition: 'camelCase',
      // LotSortKey's values were named before this rule, and its clients send them as they are: only
      // those six are let be, and a new value of LotSortKey is held to UPPER_CASE like any other.
      [`EnumValueDefinition:not(${LEGACY_ENUM})`]: 'UPPER_CASE',
      [`EnumValueDefinition:matches(${LEGACY_ENUM})`]: { style: 'UPPER_CASE', ignorePattern: '^(buy_now_price|created_at|price|start_time|time_left|updated_at)$' },
      allowLeadingUnderscore: false,
      allowTrailingUnderscore: false,
    }],
    '@graphql-eslint/require-deprecation-reason': 'error',
    '@graphql-eslint/unique-enum-value-names': 'error',
  },
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.data/'] },
  { ...js.configs.recommended, ignores: SCHEMA_FILES },
  ...tseslint.configs.recommended.map((config) => ({ ...config, ignores: [...(config.ignores ?? []), ...SCHEMA_FILES] })),
  schemaLint,
  {
    ignores: SCHEMA_FILES,
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', fetch: 'readonly', WebSocket: 'readonly', FormData: 'readonly', Blob: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['jest.config.js', 'test/runtime.js', 'test/grouping.js', 'test/groups/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', __filename: 'readonly', describe: 'readonly', beforeAll: 'readonly', afterAll: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // One way to the database: aggregates through the entity manager, set-based statements through
    // src/db/query.ts, and one transaction API, inTransaction (src/core/transaction.ts); the ORM's
    // connection and transaction statements stay in src/db. The bid round alone takes the
    // executor's pipelined transaction (rawTransaction), which inTransaction cannot give it.
    files: ['src/**/*.ts'],
    ignores: ['src/db/**', 'src/core/transaction.ts', 'src/modules/bids/bids.service.ts', 'src/jobs/queue-db.ts'],
    rules: { 'no-restricted-syntax': ['error', ...ONE_WAY, RAW_TRANSACTION, ...DRIVER_PRIVATE] },
  },
  { files: ['src/modules/bids/bids.service.ts'], rules: { 'no-restricted-syntax': ['error', ...ONE_WAY, ...DRIVER_PRIVATE] } },
  { files: ['src/core/transaction.ts'], rules: { 'no-restricted-syntax': ['error', ...DRIVER_PRIVATE] } },
  // The files that reach the driver (its imports are restricted to them below).
  { files: ['src/db/**/*.ts'], rules: { 'no-restricted-syntax': ['error', ...DRIVER_PRIVATE] } },
  { files: ['src/jobs/queue-db.ts'], rules: { 'no-restricted-syntax': ['error', ...ONE_WAY, RAW_TRANSACTION, ...DRIVER_PRIVATE] } },
  {
    files: ['src/**/*.ts'],
    // The job queue's own pool (pg-boss takes a pg Pool of its own).
    ignores: ['src/db/**', 'src/jobs/queue-db.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['pg', 'knex'].map((name) => ({ name, message: 'The driver is reached through src/db only.' })) }] },
  },
  // The bid log's own statements keep their casts until its rework declares them.
  { files: ['src/**/*.ts'], plugins: { rows }, rules: { 'rows/declared': 'error' } },
  { files: ['src/*.ts'], rules: borders(pastIndex('^\\./modules/[^/]+/.')) },
  { files: ['src/*/*.ts'], ignores: ['src/modules/**', 'src/core/**'], rules: borders(pastIndex('^\\.\\./modules/[^/]+/.')) },
  { files: ['src/core/**/*.ts'], rules: borders({ regex: '(^|/)modules(/|$)', message: 'src/core is the shared kernel: it imports no area of src/modules' }) },
  { files: ['src/modules/*/*.ts'], rules: borders(pastIndex('^\\.\\./(\\.\\./modules/)?[^./][^/]*/.')) },
  {
    files: ['src/modules/*/*/**/*.ts'],
    rules: borders(pastIndex('^\\.\\./\\.\\./(\\.\\./modules/)?[^./][^/]*/.'), {
      group: ['@mikro-orm/migrations'],
      message: 'A migration takes Migration from src/db/migration.ts: the package index loads the migrator in every process.',
    }),
  },
  { files: ['src/modules/index.ts'], rules: borders(pastIndex('^\\./[^/]+/(?![^/]+\\.module$).')) },
  { files: ['test/**', 'bench/**', '**/*.mjs'], rules: { 'no-console': 'off', '@typescript-eslint/no-require-imports': 'off', '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' } },
);
