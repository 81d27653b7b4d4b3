import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { execute, getIntrospectionQuery, graphqlSync, Kind, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { GraphQLContext } from './context';

/** How much a full answer of `__schema`, and of `__type` for the largest type, holds: the objects in it. */
export interface IntrospectionSizes {
  schema: number;
  largestType: number;
}

const sizesBySchema = new WeakMap<GraphQLSchema, IntrospectionSizes>();

function objectsIn(value: unknown): number {
  let objects = 0;
  const pending = [value];
  while (pending.length) {
    const v = pending.pop();
    if (Array.isArray(v)) pending.push(...v);
    else if (v && typeof v === 'object') {
      objects++;
      pending.push(...Object.values(v));
    }
  }
  return objects;
}

/**
 * The cost of reading the schema is the size of its answer, measured once per schema on the
 * fullest introspection query: 200 aliases of `__schema` once rendered 26 MB for a flat cost of
 * 100 each.
 */
export function introspectionSizes(schema: GraphQLSchema): IntrospectionSizes {
  const known = sizesBySchema.get(schema);
  if (known) return known;
  const full = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true });
  const answer = graphqlSync({ schema, source: full }).data as { __schema: { types: unknown[] } };
  const sizes = { schema: objectsIn(answer), largestType: Math.max(...answer.__schema.types.map(objectsIn)) };
  sizesBySchema.set(schema, sizes);
  return sizes;
}

/** Answers kept, by query text: GraphiQL and code generators send one introspection query, again and again. */
const ANSWERS_KEPT = 8;

const INTROSPECTION_FIELDS = new Set(['__schema', '__type', '__typename']);

/** A query reading only the schema, without variables or directives: its answer is the schema's, whoever asks. */
function readsOnlyTheSchema(operation: OperationDefinitionNode): boolean {
  return (
    operation.operation === 'query' &&
    !operation.variableDefinitions?.length &&
    operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && INTROSPECTION_FIELDS.has(s.name.value) && !s.directives?.length)
  );
}

/**
 * Over HTTP, a query that only introspects is answered from an answer computed once for its
 * text on this schema, rather than rendering the schema again per request (cost.ts admits one
 * `__schema` per operation).
 */
export function cachedIntrospection(schema: GraphQLSchema): ApolloServerPlugin<GraphQLContext> {
  const answers = new LRUCache<string, ExecutionResult>({ max: ANSWERS_KEPT });
  return {
    // Measured at start, not while the first caller (and everyone behind it) waits.
    async serverWillStart() {
      introspectionSizes(schema);
    },
    async requestDidStart() {
      return {
        async responseForOperation({ operation, document, queryHash, operationName }) {
          if (!operation || !readsOnlyTheSchema(operation)) return null;
          const key = `${operationName ?? ''}\n${queryHash}`;
          let answer = answers.get(key);
          if (!answer) {
            answer = await execute({ schema, document, operationName });
            if (answer.errors?.length) return null;
            answers.set(key, answer);
          }
          return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data: answer.data } } };
        },
      };
    },
  };
}
