import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import { execute, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/** How many times a document runs through graphql-js before it is compiled. */
const RUNS_BEFORE_COMPILING = 2;

/** A document's runs so far, and its operations once compiled, by name ('' when it has one). */
interface Plans {
  runs: number;
  compiled: Map<string, CompiledQuery>;
}

/**
 * graphql-jit's errors carry no `extensions` object where graphql-js's always do, and Apollo's
 * error formatting reads it: each becomes the GraphQLError graphql-js would have made.
 */
function asGraphqlJsErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((e) => {
    const error = new GraphQLError(e.message, { path: e.path, originalError: e.originalError, extensions: e.extensions });
    Object.assign(error, { locations: e.locations });
    return error;
  });
  return { ...result, errors };
}

/**
 * Executes operations through graphql-jit, which compiles a document once into a function that
 * resolves and serialises its fields without graphql-js's per-field interpretation: in a profile
 * of bench/lots.mjs, graphql-js's execution was most of what a page of lots costs over GraphQL
 * beyond REST, and compiled pages took about half that extra CPU. A document is compiled only once it
 * comes back: a one-off text, which any caller may send, costs no compilation. Apollo Server 4+
 * takes a custom executor only through its gateway option; parsing, validation, plugins and error
 * formatting stay Apollo's. Compiled plans live as long as Apollo's document store keeps the
 * parsed document they were made from.
 */
export function jitGateway(schema: GraphQLSchema): GatewayInterface {
  const plans = new WeakMap<DocumentNode, Plans>();
  const executor: GatewayExecutor = async ({ document, operationName, request, context }) => {
    let known = plans.get(document);
    if (!known) plans.set(document, (known = { runs: 0, compiled: new Map() }));
    const name = operationName ?? '';
    let plan = known.compiled.get(name);
    if (!plan && ++known.runs > RUNS_BEFORE_COMPILING) {
      const made = compileQuery(schema, document, operationName ?? undefined);
      if (isCompiledQuery(made)) known.compiled.set(name, (plan = made));
    }
    const variables = request.variables ?? {};
    if (!plan) return execute({ schema, document, contextValue: context, variableValues: variables, operationName });
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
