import type { GraphQLField } from 'graphql';

/**
 * What a field that runs a statement of its own over every lot adds to a query's cost, beside
 * its items: a count or a page under any filter may scan the whole table, however few rows it
 * answers, and no loader shares it between aliases. At 1,000, one operation within
 * GRAPHQL_MAX_COST's default runs at most twenty; 200 aliased counts in 8 KB ran 200 scans.
 */
export const STATEMENT_COST = 1000;

/** The extensions (type-graphql's `@Extensions`) of such a field. */
export const runsOwnStatement = () => ({ statementCost: STATEMENT_COST }) as const;

/** The cost a field declares with `runsOwnStatement`, else 0. */
export function declaredStatementCost(field: GraphQLField<unknown, unknown>): number {
  const cost = field.extensions.statementCost;
  return typeof cost === 'number' ? cost : 0;
}
