import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { AccountsResolver } from '../modules/accounts/accounts.resolver';
import { CredentialsResolver } from '../modules/credentials/credentials.resolver';
import { PlatformsResolver } from '../modules/platforms/platforms.resolver';
import { ReferenceResolver } from '../modules/reference/reference.resolver';
import { SystemResolver } from '../modules/system/system.resolver';

export const SCHEMA_FILE = 'schema/schema.graphql';

export function buildAppSchema(): GraphQLSchema {
  return buildSchemaSync({
    resolvers: [SystemResolver, ReferenceResolver, AccountsResolver, CredentialsResolver, PlatformsResolver],
    validate: false,
  });
}

/** The schema as committed in schema/schema.graphql: sorted, so that diffs show real changes. */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
