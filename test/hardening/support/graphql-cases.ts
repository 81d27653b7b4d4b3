import fc from 'fast-check';
import {
  getNamedType,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { anyJson, badId, badPrice, hugeText, PRICE_FIELD } from './bad-values';

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A value of the wrong JSON kind for the type: GraphQL's own coercion must refuse it (400). */
function wrongKind(type: GraphQLInputType): fc.Arbitrary<unknown> | null {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const item = wrongKind(inner.ofType);
    return item ? fc.array(item, { minLength: 1, maxLength: 3 }) : null;
  }
  if (inner instanceof GraphQLInputObjectType) {
    return fc.oneof(fc.constantFrom('x', 1, true, [[]]), fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }).map((k) => `zz${k}`), anyJson, { minKeys: 1, maxKeys: 3 }));
  }
  if (inner instanceof GraphQLEnumType) return fc.constantFrom('NOT_A_VALUE', 1, true, {});
  if (inner instanceof GraphQLScalarType) {
    switch (inner.name) {
      case 'String':
        return fc.constantFrom(1, 1.5, true, {}, { a: 1 });
      case 'ID':
        return fc.constantFrom(1.5, true, {}, [[]]);
      case 'Int':
        return fc.constantFrom(1.5, 2147483648, -2147483649, 1e20, '1', true, {});
      case 'Float':
        return fc.constantFrom('x', true, {}, []);
      case 'Boolean':
        return fc.constantFrom('true', 1, 0, {}, []);
      case 'DateTimeISO':
        return fc.constantFrom('yesterday', '2026-13-45T99:99:99Z', 1e20, true, {});
      default:
        return null;
    }
  }
  return null;
}

/** A value of the right kind whose content no operation takes: an id naming nothing, a malformed price, an enormous string. */
function badContent(arg: string, type: GraphQLInputType): fc.Arbitrary<unknown> {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return fc.oneof(fc.array(badContent(arg, inner.ofType), { minLength: 1, maxLength: 3 }), fc.constant(Array(1001).fill('1')));
  const named = getNamedType(inner);
  if (named instanceof GraphQLInputObjectType) {
    const fields = Object.values(named.getFields());
    return fc.record(Object.fromEntries(fields.map((f) => [f.name, badContent(f.name, f.type)])));
  }
  if (named instanceof GraphQLEnumType) return fc.constantFrom(...named.getValues().map((v) => v.name));
  if (PRICE_FIELD.test(snake(arg))) return badPrice.filter((p) => typeof p === 'string');
  switch (named.name) {
    case 'ID':
      return badId;
    case 'String':
      return fc.oneof(badId, hugeText);
    case 'Int':
      return fc.constantFrom(-1, 0, -2147483648, 2147483647);
    case 'Float':
      return fc.constantFrom(-1, 1e308, -1e308, 1.001);
    case 'Boolean':
      return fc.boolean();
    default:
      return anyJson;
  }
}

export interface GraphQLCase {
  family: string;
  query: string;
  variables: Record<string, unknown>;
}

const typeText = (type: GraphQLInputType): string =>
  isNonNullType(type) ? `${typeText(type.ofType)}!` : isListType(type) ? `[${typeText((type as GraphQLList<GraphQLInputType>).ofType)}]` : getNamedType(type).name;

/** A payload mutation answers its refusals in the payload's `userErrors`, beside its other fields. */
export const isPayload = (field: GraphQLField<unknown, unknown>) => getNamedType(field.type).name.endsWith('Payload');

/** The smallest selection of a result: scalars need none, objects their `__typename`, payloads their user errors' codes too. */
function selection(field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  if (isPayload(field)) return ' { __typename userErrors { code } }';
  return isLeafType(named) ? '' : isObjectType(named) || 'getTypes' in named || 'getFields' in named ? ' { __typename }' : '';
}

function operation(field: GraphQLField<unknown, unknown>, args: readonly GraphQLArgument[]): string {
  const declared = args.map((a) => `$${a.name}: ${typeText(a.type)}`).join(', ');
  const passed = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  return `mutation${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection(field)} }`;
}

/**
 * The families of bad calls of one mutation: a required argument left out, one argument of the
 * wrong kind, every argument of the right kind with bad content. Each must be refused.
 */
export function mutationCases(field: GraphQLField<unknown, unknown>): Record<string, fc.Arbitrary<GraphQLCase>> {
  const args = field.args;
  const families: Record<string, fc.Arbitrary<GraphQLCase>> = {};
  const required = args.filter((a) => a.type instanceof GraphQLNonNull);
  const content = fc.record(Object.fromEntries(args.map((a) => [a.name, badContent(a.name, a.type)])));
  if (required.length) {
    families.missing = fc.record({ omit: fc.constantFrom(...required), values: content }).map(({ omit, values }) => {
      const rest = args.filter((a) => a !== omit);
      return { family: 'missing', query: operation(field, rest), variables: Object.fromEntries(rest.map((a) => [a.name, values[a.name]])) };
    });
  }
  const typed = args.map((a) => ({ arg: a, wrong: wrongKind(a.type) })).filter((x): x is { arg: GraphQLArgument; wrong: fc.Arbitrary<unknown> } => x.wrong !== null);
  if (typed.length) {
    families.kind = fc
      .constantFrom(...typed)
      .chain(({ arg, wrong }) => fc.record({ arg: fc.constant(arg), value: wrong, values: content }))
      .map(({ arg, value, values }) => ({ family: 'kind', query: operation(field, args), variables: { ...values, [arg.name]: value } }));
  }
  // A mutation without arguments takes no input that could be bad.
  if (args.length) families.content = content.map((values) => ({ family: 'content', query: operation(field, args), variables: values }));
  return families;
}
