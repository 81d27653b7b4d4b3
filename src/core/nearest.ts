import { suggestionList } from 'graphql/jsutils/suggestionList';

/** ` (did you mean maker?)` for the nearest of `names`, by graphql-js's measure, as GraphQL's own errors suggest. */
export function nearest(given: string, names: readonly string[], form: (name: string) => string = (name) => name): string {
  const [best] = suggestionList(given, names);
  return best === undefined ? '' : ` (did you mean ${form(best)}?)`;
}
