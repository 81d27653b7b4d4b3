import type { GraphQLField } from 'graphql';

/**
 * The extensions (type-graphql's `@Extensions`) of a subscription whose result is a function of
 * the event, the operation and its variables alone: no resolver under it reads the context.
 * LiveFanout executes such an event once for all the subscribers of an operation, so what a
 * subscriber may see is decided before, in the event its stream pushes. A context-reading
 * field under it would leak one subscriber's view to the others: test/live/context-free.test.ts
 * fails when a field reachable from such a subscription gains a resolver of its own.
 */
export const CONTEXT_FREE = { liveContextFree: true } as const;

export function isContextFree(field: GraphQLField<unknown, unknown> | undefined): boolean {
  return field?.extensions.liveContextFree === true;
}
