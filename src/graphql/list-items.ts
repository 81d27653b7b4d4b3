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

/**
 * The extensions of a field that answers for each item of its list argument `arg`, one at a time
 * (`lotsUpdated(ids:)`): its selection is counted once per item (cost.ts).
 */
export const itemsPerArgument = (arg: string) => ({ itemsPerArgument: arg }) as const;

/** The list argument a field declares with `itemsPerArgument`, if it does. */
export function declaredItemsArgument(field: GraphQLField<unknown, unknown>): string | undefined {
  const arg = field.extensions.itemsPerArgument;
  return typeof arg === 'string' ? arg : undefined;
}
