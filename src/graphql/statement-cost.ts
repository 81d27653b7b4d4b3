import type { GraphQLField } from 'graphql';

/**
 * What a field that runs a statement of its own over every lot adds to a query's cost, beside
 * its items: a count or a page under any filter may scan the whole table, however few rows it
 * answers, and no loader shares it between aliases. At 1,000, one operation within
 * GRAPHQL_MAX_COST's default runs at most twenty; 200 aliased counts in 8 KB ran 200 scans.
 */
export const STATEMENT_COST = 1000;

/**
 * What a field that runs a statement of its own each time it is resolved, by key or over the
 * caller's own rows, adds: no loader shares it between aliases, and every alias of a query's root
 * fields is resolved at once, each holding a connection of the pool. At 150, an operation within
 * GRAPHQL_MAX_COST's default runs at most 131 of them (20,000 / 152 for the cheapest selection),
 * and `nodes` still takes its 100 ids with a selection of some forty fields each: 300 aliased
 * `ledgerAccount` ran 300 statements in 3.2 s, and twenty such requests at once left every other
 * client waiting for a connection; a dashboard asks a dozen.
 */
export const FIELD_STATEMENT_COST = 150;

// How a query's field or a field resolver reaches the database, declared on each (type-graphql's
// `@Extensions`) and counted by the cost (cost.ts); test/graphql/statement-costs.test.ts finds
// none without. Mutations are counted as writes by the rate limits and run one after another;
// a subscription has one root field.

/** A statement over every lot (a count, a page under any filter). */
export const runsOwnStatement = () => ({ statementCost: STATEMENT_COST }) as const;
/** A statement of its own per occurrence and per parent item. */
export const runsStatement = () => ({ statementCost: FIELD_STATEMENT_COST }) as const;
/** A statement of its own for each item of its list (`nodes(ids:)`). */
export const runsStatementPerItem = () => ({ statementCost: 0, itemStatementCost: FIELD_STATEMENT_COST }) as const;
/** Reads through the request's DataLoaders, which read the parents of a page, and its aliases, together. */
export const readsThroughLoader = () => ({ statementCost: 0 }) as const;
/** Answers from its parent or from memory. */
export const runsNoStatement = () => ({ statementCost: 0 }) as const;

const costIn = (field: GraphQLField<unknown, unknown>, key: 'statementCost' | 'itemStatementCost'): number => {
  const cost = field.extensions[key];
  return typeof cost === 'number' ? cost : 0;
};

/** The cost a field declares for its own statement, else 0. */
export const declaredStatementCost = (field: GraphQLField<unknown, unknown>): number => costIn(field, 'statementCost');

/** The cost a field declares for the statement of each item it answers, else 0. */
export const declaredItemStatementCost = (field: GraphQLField<unknown, unknown>): number => costIn(field, 'itemStatementCost');

/** Whether a field declares how it reaches the database. */
export const declaresStatements = (field: GraphQLField<unknown, unknown>): boolean => typeof field.extensions.statementCost === 'number';
