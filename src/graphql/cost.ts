import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isListType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import type { ApolloServerPlugin } from '@apollo/server';
import { DomainError, invalid } from '../core/errors';
import type { GraphQLContext } from './context';

export interface CostLimits {
  maxCost: number;
  maxDepth: number;
  /** Tokens a document may have; parsing stops beyond, before validation and costing. */
  maxTokens: number;
}

/** Arguments that say how many items a list field answers. */
const PAGE_SIZE_ARGS = ['first', 'last', 'limit', 'size'] as const;
/** A page argument left out may still mean a full page: the largest the listings serve. */
const LARGEST_PAGE = 100;
/** A list without a size argument (a lot's bids, an account's cities) counts as this many items. */
export const UNSIZED_LIST_ITEMS = 10;
/** Reading the schema costs no database work, but each alias of it renders the whole schema again. */
const SCHEMA_COST = 100;
/** Fragments expanded beyond this many field nodes refuse the query without walking further. */
const MAX_QUERY_NODES = 20_000;

function itemsOf(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>, listField: boolean): number {
  const sizes = field.args.filter((a) => (PAGE_SIZE_ARGS as readonly string[]).includes(a.name));
  if (sizes.length) {
    const given = sizes.map((a) => args[a.name]).filter((v): v is number => typeof v === 'number');
    return given.length ? Math.max(1, ...given) : LARGEST_PAGE;
  }
  if (!listField) return 1;
  // A list answered per item of a list argument (`documents(in: …)`, `convertMany(items: …)`).
  const lists = Object.values(args).filter(Array.isArray);
  return lists.length ? Math.max(1, ...lists.map((l) => l.length)) : UNSIZED_LIST_ITEMS;
}

/**
 * Each field costs 1 plus its selection, times the items it answers: the page size of a paged
 * field, the length of a list argument, or `UNSIZED_LIST_ITEMS` for a list without either. The
 * `nodes`/`items` list of a page is the page itself, already counted by the field that took the size.
 */
const estimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  if (type.name.startsWith('__')) return 0;
  if (field.name === '__schema') return SCHEMA_COST;
  if (field.name.startsWith('__')) return 1;
  const listField = isListType(getNullableType(field.type));
  const pageOfParent = /(Connection|Page)$/.test(type.name) && (field.name === 'nodes' || field.name === 'items');
  const items = pageOfParent ? 1 : itemsOf(field, args, listField || /(Connection|Page)$/.test(getNamedType(field.type).name));
  return 1 + items * childComplexity;
};

function depthOf(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): number {
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      // The schema's own types nest `ofType` by design and read no data.
      if (selection.name.value.startsWith('__')) continue;
      deepest = Math.max(deepest, 1 + (selection.selectionSet ? depthOf(selection.selectionSet, fragments, seen) : 0));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(selection.selectionSet, fragments, seen));
    } else {
      const fragment = fragments.get(selection.name.value);
      // A fragment spreading itself is refused by validation; here it only must not loop.
      if (!fragment || seen.has(fragment.name.value)) continue;
      deepest = Math.max(deepest, depthOf(fragment.selectionSet, fragments, new Set([...seen, fragment.name.value])));
    }
  }
  return deepest;
}

const tooCostly = (detail: string) => invalid('query_too_costly', detail);

/**
 * Refuses, before anything runs, an operation whose cost (aliases × page sizes × nested lists,
 * fragments included) or depth is over the limits: one request of a thousand aliases would
 * otherwise hold the database and gigabytes of memory for minutes. Returns the cost.
 */
export function checkCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined | null,
  limits: CostLimits,
): number {
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION || (operationName && definition.name?.value !== operationName)) continue;
    const depth = depthOf(definition.selectionSet, fragments, new Set());
    if (depth > limits.maxDepth) throw tooCostly(`the query nests ${depth} fields deep, more than the limit of ${limits.maxDepth}`);
  }
  let cost: number;
  try {
    cost = getComplexity({ schema, query: document, variables, operationName: operationName ?? undefined, estimators: [estimator], maxQueryNodes: MAX_QUERY_NODES });
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    throw tooCostly(`the query expands to more than ${MAX_QUERY_NODES} fields`);
  }
  if (cost > limits.maxCost) throw tooCostly(`the query costs ${cost}, more than the limit of ${limits.maxCost}`);
  return cost;
}

/** Variable sets remembered per document as within the limits; the oldest is forgotten first. */
const PASSED_PER_DOCUMENT = 100;
/** Variables longer than this (as JSON) are costed every time rather than kept. */
const LONGEST_REMEMBERED_VARIABLES = 1000;

/**
 * The limit over HTTP: a refused operation answers 400 (Apollo reads `extensions.http`) and runs
 * nothing. Apollo keeps one parsed document per query text (its document store), so a query asked
 * again with the same variables is known to pass without walking it again: the walk cost a tenth
 * of a listing's time in the service (bench/lots.mjs profile).
 */
export function costLimit(limits: CostLimits): ApolloServerPlugin<GraphQLContext> {
  const passed = new WeakMap<DocumentNode, Set<string>>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, request, operationName }) {
          const key = `${operationName ?? ''}:${JSON.stringify(request.variables ?? null)}`;
          const known = passed.get(document);
          if (known?.has(key)) return;
          try {
            checkCost(schema, document, request.variables, operationName, limits);
          } catch (err) {
            if (!(err instanceof DomainError)) throw err;
            throw new GraphQLError(err.message, { originalError: err, extensions: { http: { status: 400 } } });
          }
          if (key.length > LONGEST_REMEMBERED_VARIABLES) return;
          const kept = known ?? new Set<string>();
          if (kept.size >= PASSED_PER_DOCUMENT) kept.delete(kept.values().next().value as string);
          passed.set(document, kept.add(key));
        },
      };
    },
  };
}
