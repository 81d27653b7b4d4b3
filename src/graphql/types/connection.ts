import type { GraphQLResolveInfo, GraphQLScalarType } from 'graphql';
import { ArgsType, Extensions, Field, FieldResolver, Int, ObjectType, Resolver, Root, type ClassType } from 'type-graphql';
import { invalid } from '../../core/errors';
import { turnCursor } from '../../core/cursors';
import { MAX_PAGE_SIZE, type KeysetPage } from '../../core/page';
import { listItems } from '../list-items';
import { PageInfoGql } from '../page-info';
import { fieldsUnder } from '../selections';
import type { WindowPage } from '../../core/list-window';
import { decodeListCursor, encodeListCursor } from './cursor';
import { runsNoStatement } from '../statement-cost';

// Relay connections (the Relay server specification's "Connections"): one kind of list for
// everything a dashboard pages through.
//
// Usage, for a list of bids under a lot:
//
//   const { Connection: BidConnectionGql, Resolver } = connectionTypes('Bid', () => BidGql);
//   // …and `Resolver` in the area's module's `resolvers`.
//
//   @FieldResolver(() => BidConnectionGql)
//   async bidsConnection(@Root() lot, @Args() page: ConnectionArgs, @Info() info, …) {
//     const window = pageWindow(page, 'Lot.bids', info);                 // checks first/last/after/before
//     return connectionOfList(window, newestFirst, (b) => b.id);          // a bounded list in memory
//   }
//
// A list the database pages (a keyset listing) builds its page itself and answers
// `connection(...)` with a cursor per node (`encodeListCursor`). The cost gate counts a field of
// a `…Connection` type as `first` (or `last`) items, each costing what `edges`/`nodes` select once
// (cost.ts), and `first`/`last` are bounded to 1…100.

/** The Relay arguments of a connection field: `first`/`after` pages forwards, `last`/`before` backwards. */
@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'The first n items (after `after`): 1 to 100' }) first?: number | null;
  @Field(() => String, { nullable: true, description: 'An endCursor or an edge’s cursor: the items after it' }) after?: string | null;
  @Field(() => Int, { nullable: true, description: 'The last n items (before `before`): 1 to 100' }) last?: number | null;
  @Field(() => String, { nullable: true, description: 'A startCursor or an edge’s cursor: the items before it' }) before?: string | null;
}

/** One page of a connection as asked: `size` items from the start or (`fromEnd`) from the end of the range between the cursors. */
export interface PageWindow {
  /** The list the cursors belong to: a cursor of another list is refused. */
  list: string;
  size: number;
  fromEnd: boolean;
  /** Positions (decoded cursors); null when not given. */
  after: string | null;
  before: string | null;
  /** Whether the connection's `totalCount` is selected: a list read in the database counts itself only then. */
  counted: boolean;
}

/** Items a connection answers when neither `first` nor `last` is given. */
export const DEFAULT_CONNECTION_SIZE = 20;

/**
 * Checks a connection's arguments: `first` or `last` (not both) from 1 to 100, cursors of this
 * `list`. Each fault names its argument (`invalid_page`, `invalid_cursor`). `info` tells whether
 * `totalCount` is selected: a window read in the database counts the whole list only then.
 */
export function pageWindow(args: ConnectionArgs, list: string, info: GraphQLResolveInfo, defaultSize = DEFAULT_CONNECTION_SIZE): PageWindow {
  const first = args.first ?? null;
  const last = args.last ?? null;
  if (first !== null && last !== null) throw invalid('invalid_page', 'give first or last, not both', { field: 'last' });
  for (const [field, size] of [['first', first], ['last', last]] as const) {
    if (size !== null && (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE)) {
      throw invalid('invalid_page', `${field} must be an integer from 1 to ${MAX_PAGE_SIZE}`, { field });
    }
  }
  const position = (field: 'after' | 'before') => {
    const cursor = args[field];
    return cursor === undefined || cursor === null ? null : decodeListCursor(list, cursor, field);
  };
  return { list, size: first ?? last ?? defaultSize, fromEnd: last !== null, after: position('after'), before: position('before'), counted: fieldsUnder(info).has('totalCount') };
}

/** What a connection's resolver answers: its type's fields, `totalCount` counted only when asked. */
export interface ConnectionSource<T> {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: PageInfoGql;
  count: () => number | Promise<number>;
}

/** A connection of the nodes of one page, each with its cursor. */
export function connection<T>(page: { nodes: T[]; cursors: string[]; hasNextPage: boolean; hasPreviousPage: boolean }, count: () => number | Promise<number>): ConnectionSource<T> {
  const { nodes, cursors } = page;
  // Counted once: a keyset listing counts in a statement of its own, which every alias of
  // `totalCount` would otherwise run again.
  let counted: number | Promise<number> | undefined;
  return {
    edges: nodes.map((node, i) => ({ cursor: cursors[i], node })),
    nodes,
    pageInfo: { hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage, startCursor: cursors[0] ?? null, endCursor: cursors[cursors.length - 1] ?? null },
    count: () => (counted ??= count()),
  };
}

/**
 * A connection over a whole list held in memory, in its order (a list the domain bounds, such as
 * a lot's bids): the window's cursors are the keys (`keyOf`, unique in the list) of the items
 * they follow or precede; a key no longer in the list is `invalid_cursor`. `show` makes the page's
 * nodes of its items (a redaction, a mapping), so that only the page pays for it.
 */
export function connectionOfList<T, N = T>(window: PageWindow, items: readonly T[], keyOf: (item: T) => string, show?: (page: T[]) => N[]): ConnectionSource<N> {
  const indexOf = (key: string | null, field: 'after' | 'before') => {
    if (key === null) return null;
    const index = items.findIndex((item) => keyOf(item) === key);
    if (index < 0) throw invalid('invalid_cursor', `${field} is not a cursor of this list`, { field });
    return index;
  };
  const start = (indexOf(window.after, 'after') ?? -1) + 1;
  const end = indexOf(window.before, 'before') ?? items.length;
  const range = items.slice(start, Math.max(start, end));
  const page = window.fromEnd ? range.slice(Math.max(0, range.length - window.size)) : range.slice(0, window.size);
  const from = window.fromEnd ? start + range.length - page.length : start;
  return connection(
    {
      nodes: show ? show(page) : (page as unknown as N[]),
      cursors: page.map((item) => encodeListCursor(window.list, keyOf(item))),
      // As the Relay specification allows: whether items lie beyond the page within the whole list.
      hasNextPage: from + page.length < items.length,
      hasPreviousPage: from > 0,
    },
    () => items.length,
  );
}

/** A connection over a window the database paged (`db/window.ts`): its positions are the cursors, its count the whole list's. */
export function connectionOfWindow<T, N = T>(window: PageWindow, page: WindowPage<T>, show: (items: T[]) => N[]): ConnectionSource<N> {
  return connection(
    { nodes: show(page.items), cursors: page.positions.map((p) => encodeListCursor(window.list, p)), hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
    () => {
      if (page.totalCount === null) throw new Error(`${window.list} was read without its count, which its selection asks for`);
      return page.totalCount;
    },
  );
}

/** A keyset listing's page (`cursorPageInput`) as a connection's window asks for it. */
export interface KeysetWindow {
  cursor: string | null;
  limit: number;
  fromEnd: boolean;
}

/**
 * The page a keyset listing reads for a connection's window: `first` reads
 * on after an item, `last` back before one, or from the end of the list. A keyset read goes one
 * way from one position, so `after` goes with `first` and `before` with `last`; the other pairs are
 * `invalid_page` naming the cursor.
 */
export function keysetWindow(window: PageWindow): KeysetWindow {
  const stray = window.fromEnd ? (window.after !== null ? 'after' : null) : window.before !== null ? 'before' : null;
  if (stray) throw invalid('invalid_page', `${stray} goes with ${stray === 'after' ? 'first' : 'last'} in this list`, { field: stray });
  return { cursor: window.fromEnd ? window.before && turnCursor(window.before, 'prev') : window.after, limit: window.size, fromEnd: window.fromEnd };
}

/** A connection of a keyset listing's page: each node's cursor is its row's position in the listing, bound to `list`. */
export function connectionOfKeyset<N>(list: string, page: Pick<KeysetPage<unknown>, 'next' | 'prev' | 'positions'>, nodes: N[], count: () => number | Promise<number>): ConnectionSource<N> {
  return connection(
    { nodes, cursors: page.positions().map((position) => encodeListCursor(list, position)), hasNextPage: page.next !== null, hasPreviousPage: page.prev !== null },
    count,
  );
}

/**
 * The `<name>Connection` and `<name>Edge` types of a node type, and the resolver of their
 * `totalCount` (the whole list's length, whatever the page, counted only when selected), which
 * the area that makes the connection lists among its module's resolvers.
 */
export function connectionTypes<T extends object>(name: string, node: () => ClassType<T> | GraphQLScalarType | object) {
  @ObjectType(`${name}Edge`, { description: `A ${name} in a connection, with the cursor that points at it` })
  class Edge {
    @Field(() => String, { description: 'Pass as `after` or `before` for the items beside this one' }) cursor!: string;
    @Field(node) node!: T;
  }

  @ObjectType(`${name}Connection`, { description: `A page of ${name} items (Relay connection)` })
  class Connection {
    // A page holds at most MAX_PAGE_SIZE edges; the cost counts them by the connection's `first`/`last` (cost.ts).
    @Extensions(listItems(MAX_PAGE_SIZE))
    @Field(() => [Edge])
    edges!: Edge[];
    @Field(() => [node()], { description: 'The nodes of `edges`, without cursors' }) nodes!: T[];
    @Field(() => PageInfoGql) pageInfo!: PageInfoGql;
  }

  @Resolver(() => Connection)
  class CountResolver {
    // The count a keyset listing runs, once per connection (`connection`), is its connection field's statement.
    @Extensions(runsNoStatement())
    @FieldResolver(() => Int, { description: 'How many items the whole list has, whatever the page' })
    totalCount(@Root() source: ConnectionSource<T>): number | Promise<number> {
      return source.count();
    }
  }
  Object.defineProperty(CountResolver, 'name', { value: `${name}ConnectionResolver` });
  return { Connection, Edge, Resolver: CountResolver };
}
