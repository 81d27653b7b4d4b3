import { GraphQLScalarType } from 'graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { rfc3339 } from '../core/time';

const library = GraphQLDateTimeISO.toConfig();

const validDate = (value: unknown): value is Date => value instanceof Date && !Number.isNaN(value.getTime());

/**
 * type-graphql's `Date` scalar (graphql-scalars' `DateTimeISO`, whose name the schema keeps),
 * written as REST writes time (`rfc3339`: whole seconds, `Z`), so that a client sees one form on
 * both edges. Anything but a valid date goes through the library's own functions first, errors
 * and every input included.
 */
export const DateTimeISO = new GraphQLScalarType({
  ...library,
  description: 'A date-time at UTC in RFC 3339 with whole seconds, such as 2007-12-03T10:15:30Z: the form REST answers with too. Input may be any ISO 8601 date-time (an offset or a fraction of a second is taken).',
  serialize: (value) => rfc3339(validDate(value) ? value : new Date(library.serialize(value) as string)),
});

/** A time a view holds as RFC 3339 text, as a Date for a `DateTimeISO` field; null stays null. */
export const timeOf = (rfc: string | null): Date | null => (rfc === null ? null : new Date(rfc));
