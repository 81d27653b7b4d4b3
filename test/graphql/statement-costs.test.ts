import { isInterfaceType, isObjectType, type GraphQLField } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { buildAppSchema } from '../../src/graphql/schema';
import { declaresStatements, FIELD_STATEMENT_COST, STATEMENT_COST } from '../../src/graphql/statement-cost';

/**
 * A field that runs a statement each time it is resolved is priced by the cost (cost.ts); one
 * that forgot to say so cost 2, and 300 aliases of it held the pool. Every query and every field
 * resolver (the fields with code of their own) declares how it reaches the database.
 */
describe('statement costs', () => {
  const schema = buildAppSchema();
  const storage = getMetadataStorage();
  const fieldOf = (typeName: string, name: string): GraphQLField<unknown, unknown> | undefined => {
    const type = schema.getType(typeName);
    return isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
  };
  const typeNameOf = (target: unknown) => [...storage.objectTypes, ...storage.interfaceTypes].find((t) => t.target === target)?.name ?? '?';

  it('has every query and field resolver declare how it reaches the database (statement-cost.ts)', () => {
    const resolved = [
      ...storage.queries.map((q) => ['Query', q.schemaName] as const),
      ...storage.fieldResolvers.map((r) => [typeNameOf(r.getObjectType?.()), r.schemaName] as const),
    ];
    expect(resolved.length).toBeGreaterThan(100);
    // An interface's field is resolved, and costed, as each of its types has it.
    const holders = (name: string) => { const type = schema.getType(name); return isInterfaceType(type) ? schema.getPossibleTypes(type).map((t) => t.name) : [name]; };
    const undeclared = resolved.filter(([type, name]) => holders(type).some((holder) => { const field = fieldOf(holder, name); return !field || !declaresStatements(field); }));
    expect(undeclared.map(([type, name]) => `${type}.${name}`)).toEqual([]);
  });

  it('prices the statement fields the outside test stacked, and leaves those that read memory or loaders at nothing', () => {
    const cost = (type: string, name: string) => fieldOf(type, name)?.extensions.statementCost;
    expect(['ledgerAccount', 'buyingPower', 'feeEstimate', 'unreadMessages', 'ping', 'node', 'viewer'].map((n) => cost('Query', n))).toEqual(Array(7).fill(FIELD_STATEMENT_COST));
    expect(['lots', 'lotsCount'].map((n) => cost('Query', n))).toEqual([STATEMENT_COST, STATEMENT_COST]);
    expect([cost('Query', 'makers'), cost('Lot', 'organizer'), cost('LotConnection', 'totalCount')]).toEqual([0, 0, 0]);
  });
});
