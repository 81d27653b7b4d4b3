/** Variable sets remembered per document (or text) as within the limits; the oldest is forgotten first. */
const PASSED_PER_DOCUMENT = 100;
/** Variables longer than this (as JSON) are costed every time rather than kept. */
const LONGEST_REMEMBERED_VARIABLES = 1000;

/** Where the passed variable sets of each document live: a WeakMap by syntax tree, an LRU by text. */
interface Store<K> {
  get(owner: K): Set<string> | undefined;
  set(owner: K, kept: Set<string>): unknown;
}

/**
 * The operations known to be within the cost limits, by their document and variables: asked again,
 * an operation costs a lookup instead of a measure. Call `assertVariablesBounded` before `keyOf`,
 * which writes the variables as JSON.
 */
export class PassedOperations<K> {
  constructor(private readonly store: Store<K>) {}

  keyOf(operationName: string | null | undefined, variables: unknown): string {
    return `${operationName ?? ''}:${JSON.stringify(variables ?? null)}`;
  }

  has(owner: K, key: string): boolean {
    return this.store.get(owner)?.has(key) ?? false;
  }

  add(owner: K, key: string): void {
    if (key.length > LONGEST_REMEMBERED_VARIABLES) return;
    const known = this.store.get(owner);
    const kept = known ?? new Set<string>();
    if (kept.size >= PASSED_PER_DOCUMENT) kept.delete(kept.values().next().value as string);
    kept.add(key);
    if (!known) this.store.set(owner, kept);
  }
}
