import type { GraphQLField } from 'graphql';

/**
 * The extensions (type-graphql's `@Extensions`) of a list field without a size argument whose
 * length the domain bounds (a bid request's bids, a ledger account's signers, the reference
 * lists): the most items it answers per parent, which is what its cost counts (cost.ts).
 */
export const listItems = (items: number) => ({ listItems: items }) as const;

/** The items a list field declares with `listItems`, if it does. */
export function declaredItems(field: GraphQLField<unknown, unknown>): number | undefined {
  const items = field.extensions.listItems;
  return typeof items === 'number' ? items : undefined;
}
