import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { execute, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';

/** How many times a document runs through graphql-js before it is compiled. */
const RUNS_BEFORE_COMPILING = 2;

/**
 * Compiled operations kept, the least recently used dropped first. A plan holds about 33 KB of
 * heap before it runs, more once it has: kept beside every document of Apollo's store (4 MiB of
 * documents), the plans of a soak whose queries carried literal ids took 24 MB. Clients that pass
 * variables use a few dozen operations.
 */
const PLANS_KEPT = 128;

/**
 * graphql-jit's errors carry no `extensions` object where graphql-js's always do, and Apollo's
 * error formatting reads it: each becomes the GraphQLError graphql-js would have made.
 */
function asGraphqlJsErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  // Without data nothing ran: the variables did not coerce, which graphql-js reports on their
  // definitions and Apollo then answers as BAD_USER_INPUT; graphql-jit names no node.
  const coercion = result.data === undefined;
  const errors = result.errors.map((e) => {
    const extensions = coercion ? { ...e.extensions, code: 'BAD_USER_INPUT' } : e.extensions;
    const error = new GraphQLError(e.message, { path: e.path, originalError: e.originalError, extensions });
    Object.assign(error, { locations: e.locations });
    return error;
  });
  return { ...result, errors };
}

/**
 * graphql-js stops coercing variables at its 50th error with one more that names no variable, and
 * Apollo answers an error it cannot tie to a variable as an internal one: the input is the
 * caller's, as the 50 before it are.
 */
function coercionLimitAsBadInput(result: ExecutionResult): ExecutionResult {
  if (result.data !== undefined || !result.errors?.length) return result;
  const errors = result.errors.map((e) =>
    e.extensions.code === undefined
      ? new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, originalError: e.originalError, extensions: { ...e.extensions, code: 'BAD_USER_INPUT' } })
      : e,
  );
  return { ...result, errors };
}

/**
 * Executes operations through graphql-jit, which compiles a document once into a function that
 * resolves and serialises its fields without graphql-js's per-field interpretation: in a profile
 * of bench/lots.mjs, graphql-js's execution was most of what a page of lots costs over GraphQL
 * beyond REST, and compiled pages cost about half that extra CPU. A document is compiled only
 * once it comes back: a one-off text, which any caller may send, costs no compilation. Apollo
 * Server 4+ takes a custom executor only through its gateway option; parsing, validation, plugins
 * and error formatting stay Apollo's.
 */
export function jitGateway(schema: GraphQLSchema): GatewayInterface {
  const runs = new WeakMap<DocumentNode, number>();
  /** By operation name and query hash. */
  const plans = new LRUCache<string, CompiledQuery>({ max: PLANS_KEPT });
  const planOf = (document: DocumentNode, operationName: string | null, queryHash: string): CompiledQuery | null => {
    const key = `${operationName ?? ''}\n${queryHash}`;
    const kept = plans.get(key);
    if (kept) return kept;
    const seen = (runs.get(document) ?? 0) + 1;
    runs.set(document, seen);
    if (seen <= RUNS_BEFORE_COMPILING) return null;
    const made = compileQuery(schema, document, operationName ?? undefined);
    if (!isCompiledQuery(made)) return null;
    plans.set(key, made);
    return made;
  };
  const executor: GatewayExecutor = async ({ document, operationName, queryHash, request, context }) => {
    const plan = planOf(document, operationName, queryHash);
    const variables = request.variables ?? {};
    if (!plan) return coercionLimitAsBadInput(await execute({ schema, document, contextValue: context, variableValues: variables, operationName }));
    return asGraphqlJsErrors(await plan.query(undefined, context, variables));
  };
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async load() {
      return { executor };
    },
    async stop() {},
  };
}
