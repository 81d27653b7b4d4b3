/** Variable sets remembered per document (or text) as within the limits; the oldest is forgotten first. */
const PASSED_PER_DOCUMENT = 100;
/** Variables longer than this (as JSON) are costed every time rather than kept. */
const LONGEST_REMEMBERED_VARIABLES = 1000;

/** Where the passed variable sets of each document live, with their costs: a WeakMap by syntax tree, an LRU by text. */
interface Store<K> {
  get(owner: K): Map<string, number> | undefined;
  set(owner: K, kept: Map<string, number>): unknown;
}

/**
 * The operations known to be within the cost limits, by their document and variables, with their
 * costs: asked again, an operation costs a lookup instead of a measure. Call
 * `assertVariablesBounded` before `keyOf`, which writes the variables as JSON.
 */
export class PassedOperations<K> {
  constructor(private readonly store: Store<K>) {}

  keyOf(operationName: string | null | undefined, variables: unknown): string {
    return `${operationName ?? ''}:${JSON.stringify(variables ?? null)}`;
  }

  /** The cost the operation was measured at, if it passed before. */
  costOf(owner: K, key: string): number | undefined {
    return this.store.get(owner)?.get(key);
  }

  add(owner: K, key: string, cost: number): void {
    if (key.length > LONGEST_REMEMBERED_VARIABLES) return;
    const known = this.store.get(owner);
    const kept = known ?? new Map<string, number>();
    if (kept.size >= PASSED_PER_DOCUMENT) kept.delete(kept.keys().next().value as string);
    kept.set(key, cost);
    if (!known) this.store.set(owner, kept);
  }
}
