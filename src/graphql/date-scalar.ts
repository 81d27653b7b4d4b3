import { GraphQLScalarType } from 'graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { isoTimestamp } from '../core/time';

const library = GraphQLDateTimeISO.toConfig();

/**
 * type-graphql's `Date` scalar (graphql-scalars' `DateTimeISO`), written faster: a valid date is
 * formatted from its UTC fields (`isoTimestamp`); anything else, and every input, goes through
 * the library's own functions, errors included.
 */
export const DateTimeISO = new GraphQLScalarType({
  ...library,
  serialize: (value) => (value instanceof Date && isoTimestamp(value)) || library.serialize(value),
});
