import { Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * The fields a selection asks for, through fragments and inline fragments. A field under @skip or
 * @include counts as asked: callers read ahead with this, and reading a relation no one shows only
 * costs its reading.
 */
export function selectedFields(selectionSet: SelectionSetNode, fragmentOf: (name: string) => FragmentDefinitionNode | undefined, seen = new Set<string>()): FieldNode[] {
  return selectionSet.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) return [s];
    if (s.kind === Kind.INLINE_FRAGMENT) return selectedFields(s.selectionSet, fragmentOf, seen);
    if (seen.has(s.name.value)) return [];
    seen.add(s.name.value);
    const fragment = fragmentOf(s.name.value);
    return fragment ? selectedFields(fragment.selectionSet, fragmentOf, seen) : [];
  });
}

const underCache = new WeakMap<FieldNode, Map<string, ReadonlySet<string>>>();

/**
 * The names of the fields asked for under the path of fields `path` below the field being
 * resolved (`nodes`, or `edges`, `node` of a connection). Kept per field node: a document's nodes
 * live as long as it is cached, and the answer depends on nothing else.
 */
export function fieldsUnder(info: GraphQLResolveInfo, ...path: string[]): ReadonlySet<string> {
  const [first] = info.fieldNodes;
  const key = path.join('.');
  let byPath = underCache.get(first);
  if (!byPath) underCache.set(first, (byPath = new Map()));
  const known = byPath.get(key);
  if (known) return known;
  const fragmentOf = (name: string) => info.fragments[name];
  let level = info.fieldNodes.flatMap((f) => (f.selectionSet ? selectedFields(f.selectionSet, fragmentOf) : []));
  for (const child of path) {
    level = level.filter((field) => field.name.value === child && field.selectionSet).flatMap((field) => selectedFields(field.selectionSet as SelectionSetNode, fragmentOf));
  }
  const names = new Set(level.map((field) => field.name.value));
  byPath.set(key, names);
  return names;
}
