import { getNamedType, getNullableType, GraphQLError, isLeafType, isListType, Kind, parse, type DocumentNode, type GraphQLField, type GraphQLSchema, type ValidationRule } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { DomainError, invalid } from '../core/errors';
import type { GraphQLContext } from './context';
import type { CostGate } from './cost-gate';
import { measureOperations, shapeOf, type FieldCost } from './cost-analysis';
import { declaredItems, declaredItemsArgument } from './list-items';
import { PassedOperations } from './passed-operations';
import { declaredItemStatementCost, declaredStatementCost } from './statement-cost';

export interface CostLimits {
  maxCost: number;
  maxDepth: number;
  /** Tokens a document may have; parsing stops beyond, before validation and costing. */
  maxTokens: number;
}

/** Arguments that say how many items a list field answers. */
const PAGE_SIZE_ARGS = ['first', 'last', 'limit', 'size'] as const;
/**
 * A page argument left out may still mean a full page: the largest the listings serve. A list
 * with neither a size argument nor a bound of its own (`listItems`) counts as many: the schema
 * test finds none, but a list added without a bound is not counted as small.
 */
const LARGEST_PAGE = 100;
/**
 * Fragment spreads a document may have, and fields of one selection answering under one name:
 * beyond, graphql-js's validation (which compares them pairwise) takes tens of milliseconds of
 * the event loop per document. Generated clients spread a few dozen fragments and repeat a name
 * a few times.
 */
const MAX_SPREADS = 32;
const MAX_SAME_NAME = 8;
/**
 * Operations a document may define: graphql-js validates every one, whichever is run (600
 * one-field operations took it 60 to 200 ms, a 1,000-alias document of the same size 40), and a
 * client sends one or a few. Fragments beyond MAX_SPREADS cannot all be spread, and validation
 * refuses a fragment left unspread only after walking it.
 */
const MAX_OPERATIONS = 20;
const MAX_FRAGMENTS = MAX_SPREADS;
/** Levels of arrays and objects the variables may nest: the deepest input of the schema has a handful. */
export const MAX_VARIABLES_DEPTH = 32;

function itemsOf(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>, listField: boolean): number {
  const sizes = field.args.filter((a) => (PAGE_SIZE_ARGS as readonly string[]).includes(a.name));
  if (sizes.length) {
    const given = sizes.map((a) => args[a.name]).filter((v): v is number => typeof v === 'number');
    return given.length ? Math.max(1, ...given) : LARGEST_PAGE;
  }
  const perItemOf = declaredItemsArgument(field);
  if (perItemOf !== undefined) return Array.isArray(args[perItemOf]) ? Math.max(1, (args[perItemOf] as unknown[]).length) : 1;
  if (!listField) return 1;
  const declared = declaredItems(field);
  if (declared !== undefined) return declared;
  // A list answered per item of a list argument (`convertMany(items: …)`).
  const lists = Object.values(args).filter(Array.isArray);
  return lists.length ? Math.max(1, ...lists.map((l) => l.length)) : LARGEST_PAGE;
}

const PAGE_TYPE = /(Connection|Page)$/;
/** The fields of a page that list its items: `edges` and `nodes` of a Relay connection, `items` of a numbered page. */
const PAGE_ITEMS = ['edges', 'nodes', 'items'];

/**
 * Each field costs 1 plus its selection (1 for an item of a list of scalars), times the items it
 * answers: the page size of a paged field, the bound a list declares (`listItems`), or the length
 * of a list argument; a field that runs a statement of its own adds that statement, once or per
 * item (statement-cost.ts). The
 * `edges`/`nodes`/`items` list of a page is the page itself, already counted by the field that took the size.
 */
const fieldCost: FieldCost = (field, parent, args, childCost) => {
  const listField = isListType(getNullableType(field.type));
  const pageOfParent = PAGE_TYPE.test(parent.name) && PAGE_ITEMS.includes(field.name);
  const items = pageOfParent ? 1 : itemsOf(field, args, listField || PAGE_TYPE.test(getNamedType(field.type).name));
  // An item of a list of scalars (a broker's cities, the platforms) costs what a scalar field does.
  const each = listField && isLeafType(getNamedType(field.type)) ? 1 : childCost;
  return 1 + declaredStatementCost(field) + items * (each + declaredItemStatementCost(field));
};

const tooCostly = (detail: string) => invalid('query_too_costly', detail);

/**
 * Values the variables may hold in all: a few arguments' lists of at most a thousand items each
 * (argument-guard.ts). A megabyte of variables is a hundred thousand values, which every later
 * step (their JSON as a cache key, the measure, coercion) walks again: refused after one walk.
 */
export const MAX_VARIABLE_VALUES = 10_000;

/**
 * Refuses variables nested deeper than `MAX_VARIABLES_DEPTH` or holding more than
 * `MAX_VARIABLE_VALUES` values, walking them without recursion: everything after (the costing,
 * JSON of them, coercion) recurses, and 5,000 levels overflowed the stack into a 500.
 */
export function assertVariablesBounded(variables: unknown): void {
  const pending: [unknown, number][] = [[variables, 0]];
  let values = 0;
  while (pending.length) {
    const [value, depth] = pending.pop() as [unknown, number];
    if (++values > MAX_VARIABLE_VALUES) throw invalid('too_many_items', `the variables hold more than ${MAX_VARIABLE_VALUES} values`, { field: 'variables' });
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_VARIABLES_DEPTH) throw invalid('bad_user_input', `the variables nest more than ${MAX_VARIABLES_DEPTH} levels deep`, { field: 'variables' });
    for (const item of Object.values(value)) pending.push([item, depth + 1]);
  }
}

/** Refuses a document defining more operations or fragments than validating it should take. */
function assertDefinitionsBounded(document: DocumentNode): void {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
  if (operations > MAX_OPERATIONS) throw tooCostly(`the document defines ${operations} operations, more than the limit of ${MAX_OPERATIONS}`);
  const fragments = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).length;
  if (fragments > MAX_FRAGMENTS) throw tooCostly(`the document defines ${fragments} fragments, more than the limit of ${MAX_FRAGMENTS}`);
}

/** A cost too large to print as a number (chains of fragments double it at each link). */
const shown = (cost: number) => (Number.isSafeInteger(cost) ? String(cost) : `more than ${Number.MAX_SAFE_INTEGER}`);

/**
 * Refuses, before anything runs and before the document is validated, an operation whose cost
 * (aliases × page sizes × nested lists, each spread of a fragment included) or depth is over the
 * limits, or that reads `__schema` more than once: one request of a thousand aliases would
 * otherwise hold the database and gigabytes of memory for minutes. The measure takes time linear
 * in the document (cost-analysis.ts). Returns the cost.
 */
export function checkCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined | null,
  limits: CostLimits,
): number {
  assertVariablesBounded(variables);
  assertDefinitionsBounded(document);
  const measures = measureOperations(schema, document, variables ?? {}, operationName, fieldCost);
  for (const m of measures) {
    if (m.schemaReads > 1) throw tooCostly(`the query reads __schema ${m.schemaReads} times; an operation reads it at most once`);
    if (m.depth > limits.maxDepth) throw tooCostly(`the query nests ${m.depth} fields deep, more than the limit of ${limits.maxDepth}`);
  }
  const cost = Math.max(0, ...measures.map((m) => m.cost));
  if (cost > limits.maxCost) throw tooCostly(`the query costs ${shown(cost)}, more than the limit of ${limits.maxCost}`);
  const shape = shapeOf(document);
  if (shape.spreads > MAX_SPREADS) throw tooCostly(`the query spreads fragments ${shape.spreads} times, more than the limit of ${MAX_SPREADS}`);
  if (shape.sameName > MAX_SAME_NAME) throw tooCostly(`the query asks ${shape.sameName} fields under one name in one selection, more than the limit of ${MAX_SAME_NAME}`);
  return cost;
}

/** A refusal as Apollo answers it: 400 (it reads `extensions.http`), shaped by the error formatter. */
function refusal(err: unknown): unknown {
  return err instanceof DomainError ? new GraphQLError(err.message, { originalError: err, extensions: { http: { status: 400 } } }) : err;
}

/**
 * The limit over HTTP: a refused operation answers 400 and runs nothing. A new text is measured
 * before graphql-js validates it, whose rules take time superlinear in the fragments a document
 * spreads (200 chained spreads: half a second), and which no hook of Apollo's can stop once
 * begun, nor refuse with an answer: a refused text is replaced by a one-field stand-in, which
 * `rule` refuses with the measure's error. Apollo keeps one parsed document per query text (its
 * document store), so a query asked again with the same variables is known to pass without
 * walking it again: the walk cost a tenth of a listing's time in the service (bench/lots.mjs
 * profile). Both go into Apollo's configuration: `plugin` in `plugins`, `rule` in `validationRules`.
 * An operation `gate` admitted before Apollo (cost-gate.ts) is not measured again.
 */
export function costLimit(limits: CostLimits, gate?: CostGate): { plugin: ApolloServerPlugin<GraphQLContext>; rule: ValidationRule } {
  const passed = new PassedOperations(new WeakMap<DocumentNode, Map<string, number>>());
  const refused = new WeakMap<DocumentNode, DomainError>();
  const check = (schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName: string | null | undefined) => {
    assertVariablesBounded(variables);
    const key = passed.keyOf(operationName, variables);
    if (passed.costOf(document, key) !== undefined) return;
    passed.add(document, key, checkCost(schema, document, variables, operationName, limits));
  };
  const plugin: ApolloServerPlugin<GraphQLContext> = {
    async requestDidStart() {
      return {
        async validationDidStart(requestContext) {
          const { schema, document, request } = requestContext;
          if (gate?.admittedAlready(request.http?.body)) return;
          try {
            check(schema, document, request.variables, request.operationName);
          } catch (err) {
            if (!(err instanceof DomainError)) throw err;
            const standIn = parse('{ __typename }');
            refused.set(standIn, err);
            (requestContext as { document: DocumentNode }).document = standIn;
          }
        },
        async didResolveOperation({ schema, document, request, operationName }) {
          if (gate?.admittedAlready(request.http?.body)) return;
          try {
            check(schema, document, request.variables, operationName);
          } catch (err) {
            throw refusal(err);
          }
        },
      };
    },
  };
  const rule: ValidationRule = (context) => ({
    Document(node) {
      const err = refused.get(node);
      if (err) context.reportError(new GraphQLError(err.message, { originalError: err }));
    },
  });
  return { plugin, rule };
}
