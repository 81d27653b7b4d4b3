import { readFileSync } from 'node:fs';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { SCHEMA_FILE } from '../../src/graphql/schema';
import { lintMessageSets } from '../architecture/lint-probes';

/**
 * The committed schema's naming and Relay connections are linted by @graphql-eslint (eslint.config.mjs,
 * `npm run lint`); this holds what its rules cannot see: that a deprecation names a replacement the
 * schema has, that sized lists are connections, and payload mutations. What the schema held before a
 * rule, listed below, is let be; anything new keeps it.
 */
const schema: GraphQLSchema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
const types = Object.values(schema.getTypeMap()).filter((t) => !t.name.startsWith('__'));

/** The arguments that size or page a list. */
const PAGING_ARGS = ['page', 'size', 'limit', 'offset', 'first', 'last'];
/**
 * Mutations made before the payload rule, with their own arguments and results, and not yet
 * replaced: a replaced one is deprecated naming its payload twin, and leaves this list.
 */
const LEGACY_MUTATIONS = ['issueToken', 'refreshToken'];

const fieldsOf = (type: GraphQLNamedType) => (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type) ? Object.values(type.getFields()) : []);
const outputFieldsOf = (type: GraphQLNamedType): GraphQLField<unknown, unknown>[] => (isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : []);
const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);

/** Whether a deprecation's replacement exists: a field of the same type, a root field, a type, `Type.field`, or `field.field` from the same type. */
function replacementExists(name: string, owner: GraphQLNamedType | null): boolean {
  const [head, tail] = name.split('.');
  if (tail !== undefined) {
    const type = schema.getType(head);
    const through = owner === null ? undefined : outputFieldsOf(owner).find((f) => f.name === head);
    const reached = through ? getNamedType(through.type) : undefined;
    return (!!type && fieldsOf(type).some((f) => f.name === tail)) || (!!reached && fieldsOf(reached).some((f) => f.name === tail));
  }
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((t) => t !== null && t !== undefined);
  return (owner !== null && fieldsOf(owner).some((f) => f.name === head)) || roots.some((r) => !!r.getFields()[head]) || !!schema.getType(head);
}

describe('the committed schema', () => {
  it('names the replacement of every deprecation: "Use X", X a field, a root field, a type of the schema or a path of two fields', () => {
    const faults: string[] = [];
    const check = (where: string, reason: string | null | undefined, owner: GraphQLNamedType | null) => {
      if (reason === null || reason === undefined) return;
      const named = /^Use `?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)`?/.exec(reason)?.[1];
      if (!named || !replacementExists(named, owner)) faults.push(`${where}: "${reason}"`);
    };
    for (const type of types) {
      for (const field of fieldsOf(type)) {
        check(`${type.name}.${field.name}`, field.deprecationReason, type);
        for (const arg of 'args' in field ? field.args : []) check(`${type.name}.${field.name}(${arg.name})`, arg.deprecationReason, type);
      }
      if (isEnumType(type)) for (const value of type.getValues()) check(`${type.name}.${value.name}`, value.deprecationReason, type);
    }
    expect(faults).toEqual([]);
  });

  it("gives every connection this schema's additions to Relay: nodes, the edges' nodes as a list, and totalCount: Int!", () => {
    const faults: string[] = [];
    for (const type of types.filter((t) => t.name.endsWith('Connection'))) {
      if (!isObjectType(type)) continue;
      const { edges, nodes, totalCount } = type.getFields();
      const edge = edges && getNamedType(edges.type);
      const node = edge && isObjectType(edge) ? edge.getFields().node : undefined;
      if (!nodes || String(nodes.type) !== `[${node ? getNamedType(node.type).name : '?'}!]!`) faults.push(`${type.name}.nodes: [<the type of its edges' node>!]!`);
      if (String(totalCount?.type) !== 'Int!') faults.push(`${type.name}.totalCount: Int!`);
    }
    expect(faults).toEqual([]);
  });

  it('is linted: the Relay and naming rules of eslint.config.mjs reject a schema that breaks them', () => {
    const probes = [
      ['schema/probe.graphql', 'type ThingConnection { edges: [ThingEdge!]! nodes: [Thing!]! totalCount: Int! }', 1],
      ['schema/probe.graphql', 'type ThingConnection { edges: [ThingEdge!]! nodes: [Thing!]! pageInfo: PageInfo! totalCount: Int! }', 0],
    ] as const;
    const named = [
      ['schema/probe.graphql', 'enum ThingState { active }', 1],
      ['schema/probe.graphql', 'type Thing { created_at: String }', 1],
      ['schema/probe.graphql', 'type thing { createdAt: String }', 1],
      ['schema/probe.graphql', 'enum LotSortKey { price newest }', 1],
      ['schema/probe.graphql', 'type Thing { createdAt: String } enum ThingState { ACTIVE }', 0],
    ] as const;
    const deprecated = [
      ['schema/probe.graphql', 'type Thing { old: String @deprecated(reason: "") }', 1],
      ['schema/probe.graphql', 'type Thing { old: String @deprecated(reason: "Use `new`.") new: String }', 0],
    ] as const;
    const sets = [
      ['@graphql-eslint/relay-connection-types', probes],
      ['@graphql-eslint/naming-convention', named],
      ['@graphql-eslint/require-deprecation-reason', deprecated],
    ] as const;
    expect(lintMessageSets(sets)).toEqual(sets.map(([, set]) => set.map((p) => p[2])));
  });

  it('pages every new list by a connection: a list with a size or page argument is a connection, or deprecated naming one', () => {
    const faults: string[] = [];
    for (const type of types) {
      for (const field of outputFieldsOf(type)) {
        const where = `${type.name}.${field.name}`;
        const paged = field.args.some((a) => PAGING_ARGS.includes(a.name) && !a.deprecationReason);
        if (!paged || getNamedType(field.type).name.endsWith('Connection')) continue;
        const named = /^Use `?([A-Za-z_][A-Za-z0-9_.]*)`?/.exec(field.deprecationReason ?? '')?.[1];
        const replacement = named === undefined ? undefined : (schema.getQueryType()?.getFields()[named] ?? outputFieldsOf(type).find((f) => f.name === named));
        if (!replacement || !getNamedType(replacement.type).name.endsWith('Connection')) faults.push(`${where}: a connection, or deprecated with "Use <its connection>"`);
      }
    }
    expect(faults).toEqual([]);
  });

  it('has every new mutation take one `input: <Name>Input!` and answer a `<Name>Payload!` with userErrors', () => {
    const faults: string[] = [];
    const mutations = Object.values(schema.getMutationType()?.getFields() ?? {}) as GraphQLField<unknown, unknown>[];
    const byName = new Map(mutations.map((m) => [m.name, m]));
    // Replaced: deprecated naming a mutation that is itself held to the rule.
    const replaced = (m: GraphQLField<unknown, unknown>) => {
      const twin = byName.get(/^Use `?(\w+)`?/.exec(m.deprecationReason ?? '')?.[1] ?? '');
      return twin !== undefined && !twin.deprecationReason && !LEGACY_MUTATIONS.includes(twin.name);
    };
    // The list only shrinks: a name on it is a mutation of the schema that no payload twin replaced.
    for (const name of LEGACY_MUTATIONS) if (!byName.has(name) || replaced(byName.get(name)!)) faults.push(`${name} is no longer an older mutation: take it off LEGACY_MUTATIONS`);
    for (const mutation of mutations.filter((m) => !LEGACY_MUTATIONS.includes(m.name) && !replaced(m))) {
      const name = pascal(mutation.name);
      const [input, ...more] = mutation.args;
      if (!input || more.length || input.name !== 'input' || String(input.type) !== `${name}Input!`) faults.push(`${mutation.name}(input: ${name}Input!)`);
      if (String(mutation.type) !== `${name}Payload!`) faults.push(`${mutation.name}: ${name}Payload!`);
    }
    for (const type of types.filter((t) => t.name.endsWith('Payload'))) {
      if (!isObjectType(type)) continue;
      const fields = type.getFields();
      if (String(fields.userErrors?.type) !== '[UserError!]!') faults.push(`${type.name}.userErrors: [UserError!]!`);
      // A refused mutation answers its payload with nothing but user errors: every other field may be null.
      for (const field of Object.values(fields)) if (field.name !== 'userErrors' && isNonNullType(field.type)) faults.push(`${type.name}.${field.name} is non-null`);
    }
    expect(faults).toEqual([]);
  });
});
