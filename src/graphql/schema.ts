import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync, getMetadataStorage, type NonEmptyArray } from 'type-graphql';
import { MODULES } from '../modules';
import { guardArguments } from './argument-guard';
import { stopWhenClientGone } from './cancellation';
import { DateTimeISO } from './date-scalar';
import { resolveNodeTypes } from './types/node';

export const SCHEMA_FILE = 'schema/schema.graphql';

/**
 * type-graphql refuses to build a schema with subscriptions unless it is given a PubSub, even
 * when every subscription brings its own `subscribe` (ours do: they listen to the live source,
 * which lets `bidPlaced` replay missed bids between subscribing and going live). Topics are unused.
 */
const NO_TOPICS = {
  publish(): void {
    throw new Error('subscriptions publish through the LiveBus');
  },
  subscribe(): AsyncIterable<unknown> {
    throw new Error('subscriptions subscribe through the LiveBus');
  },
};

/**
 * type-graphql gives every plain field (a property, no resolver method) a resolver of its own that
 * runs the field's middlewares and auth checks before reading the property. A type whose fields
 * have neither reads them as its `simpleResolvers` option says, through graphql-js's default
 * resolver: a page of 20 lots of 22 fields is 440 calls fewer, each through two wrappers (this
 * one, and the cancellation check of `stopWhenClientGone`, which wraps fields with a resolver).
 */
function plainFieldsReadDirectly(): void {
  const storage = getMetadataStorage();
  const guarded = new Set([...storage.middlewares, ...storage.authorizedFields].map((m) => m.target));
  for (const type of storage.objectTypes) if (!guarded.has(type.target)) type.simpleResolvers ??= true;
}

let built: GraphQLSchema | null = null;

/**
 * The schema, built once a process: it holds no app's state (a resolver reaches the services
 * through its request's context), and a process that starts several apps (the tests, three
 * instances on one database) would otherwise build the same schema each time.
 */
export function buildAppSchema(): GraphQLSchema {
  built ??= buildSchemaOnce();
  return built;
}

function buildSchemaOnce(): GraphQLSchema {
  plainFieldsReadDirectly();
  const [first, ...rest] = MODULES.flatMap((m) => m.resolvers ?? []);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  const resolvers: NonEmptyArray<Function> = [first, ...rest];
  return stopWhenClientGone(guardArguments(resolveNodeTypes(buildSchemaSync({
    resolvers,
    validate: false,
    pubSub: NO_TOPICS,
    scalarsMap: [{ type: Date, scalar: DateTimeISO }],
  }))));
}

/** The schema as committed in schema/schema.graphql: sorted, so that diffs show real changes. */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
