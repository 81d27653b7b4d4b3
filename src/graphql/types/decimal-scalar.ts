import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

/** A decimal as text: digits, an optional sign and fraction, no exponent. */
const DECIMAL_TEXT = /^-?\d{1,40}(\.\d{1,40})?$/;

function decimalInput(value: unknown): string {
  if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return value;
  // An integer is exact in JSON; a fraction as a JSON number has passed through a double already.
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  throw new GraphQLError('A Decimal is a string of digits with an optional sign and fraction, such as "1050.25" (an integer may be a number)');
}

/**
 * Exact decimal amounts (money, rates) as strings: JSON numbers are doubles, in which 0.1 + 0.2
 * is not 0.3. Input stays text, so that the service that owns the value checks its scale and
 * bounds as it does for REST.
 */
export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description: 'An exact decimal as a string, such as "1050.25": money with two places. Input may also be an integer.',
  serialize: (value) => {
    if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return value;
    if (value !== null && typeof value === 'object' && 'toFixed' in value && typeof value.toFixed === 'function') return String(value.toFixed());
    throw new GraphQLError('Decimal cannot represent this value');
  },
  parseValue: decimalInput,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING) return decimalInput(ast.value);
    if (ast.kind === Kind.INT) return decimalInput(Number(ast.value));
    throw new GraphQLError('A Decimal literal is a string, such as "1050.25", or an integer', { nodes: ast });
  },
});
