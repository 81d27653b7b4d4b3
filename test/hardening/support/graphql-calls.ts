import {
  getNamedType,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLScalarType,
  isLeafType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';

export interface Ids {
  accountId: string;
  lotId: string;
}

/** A value of the argument's type that names the fixture where it can (accounts, lots). */
function plausible(name: string, type: GraphQLInputType, ids: Ids, field: string): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [plausible(name, inner.ofType, ids, field)];
  const named = getNamedType(inner);
  if (named instanceof GraphQLInputObjectType) {
    return Object.fromEntries(
      Object.values(named.getFields())
        .filter((f) => isNonNullType(f.type))
        .map((f) => [f.name, plausible(f.name, f.type, ids, field)]),
    );
  }
  if (named instanceof GraphQLEnumType) return named.getValues()[0].name;
  if (named instanceof GraphQLScalarType) {
    if (/lot/i.test(name) || (/^ids?$/.test(name) && /lot/i.test(field))) return ids.lotId;
    if (/account|recipient|sender|receiver|^id$/i.test(name)) return ids.accountId;
    switch (named.name) {
      case 'Int':
        return 1;
      case 'Float':
        return 1;
      case 'Boolean':
        return false;
      case 'DateTimeISO':
        return '2026-01-01T00:00:00Z';
      case 'JSONObject':
        return {};
      default:
        return 'x';
    }
  }
  return null;
}

const typeText = (type: GraphQLInputType): string =>
  isNonNullType(type) ? `${typeText(type.ofType)}!` : isListType(type) ? `[${typeText(type.ofType as GraphQLInputType)}]` : getNamedType(type).name;

/** Every scalar of the result one level deep, so that what a caller is shown is in the answer. */
function selection(field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  if (isLeafType(named)) return '';
  const fields = 'getFields' in named ? Object.values((named as { getFields(): Record<string, GraphQLField<unknown, unknown>> }).getFields()) : [];
  const scalars = fields.filter((f) => isLeafType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type))).map((f) => f.name);
  return ` { __typename ${scalars.join(' ')} }`;
}

/** A call of a query or mutation field with its required arguments filled from the fixture. */
export function callOf(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>, ids: Ids): { query: string; variables: Record<string, unknown> } {
  const args: readonly GraphQLArgument[] = field.args.filter((a) => isNonNullType(a.type));
  const declared = args.map((a) => `$${a.name}: ${typeText(a.type)}`).join(', ');
  const passed = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  return {
    query: `${kind}${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection(field)} }`,
    variables: Object.fromEntries(args.map((a) => [a.name, plausible(a.name, a.type, ids, field.name)])),
  };
}
