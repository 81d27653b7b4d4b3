import { getMetadataStorage } from 'type-graphql';
import type { FilterKind } from '../../src/core/filter-kinds';
import { LOT_FILTER_FIELDS, lotFilterInput } from '../../src/modules/lots/lots.filter';
import { LOT_FILTERS, LOT_INDEX_QUERY } from '../../src/modules/lots/lots.schema';
import { LOT_FILTER_TWINS } from '../../src/modules/lots/lots.filter.twins';
import { LotFilterInput } from '../../src/modules/lots/lots.types';
import { fromWire, wireName } from '../../src/rest/fields';
import { parseQuery } from '../../src/rest/query';

/** A value of the kind as a query string gives it. */
function goodValueOf(kind: FilterKind): string {
  switch (kind.kind) {
    case 'string':
      return 'a';
    case 'enum':
      return kind.values[0];
    case 'list':
      return kind.values?.[0] ?? ['1', 'ABC', `G${'A'.repeat(55)}`].find((item) => kind.item?.test(item)) ?? 'a';
    case 'integer':
      return '7';
    case 'boolean':
      return 'false';
    case 'range':
      return '1,2';
  }
}

describe('the lot filters: one table, both edges', () => {
  it('the REST query takes every filter the domain checks, under its wire name, and no other', () => {
    expect(Object.keys(LOT_FILTERS).sort()).toEqual(LOT_FILTER_FIELDS.map(wireName).sort());
    expect(Object.keys(LOT_FILTERS)).toEqual(expect.arrayContaining(['partnerA_status', 'trim_partnerA', 'lot_state', 'has_participants_from']));
  });

  it('GraphQL’s LotFilter input has a field for every filter the domain checks, and no other but their typed twins', () => {
    const fields = getMetadataStorage()
      .fields.filter((f) => f.target === LotFilterInput)
      .map((f) => f.name);
    expect(fields.sort()).toEqual([...LOT_FILTER_FIELDS, ...Object.keys(LOT_FILTER_TWINS)].sort());
    // Each twin stands for a filter the domain checks.
    expect(LOT_FILTER_FIELDS).toEqual(expect.arrayContaining(Object.values(LOT_FILTER_TWINS)));
  });

  it.each(LOT_FILTER_FIELDS.map((field) => [field]))('a value of filter %s that the query parser takes, the domain takes too', (field) => {
    const parameter = `filter[${wireName(field)}]`;
    const parsed = parseQuery(LOT_INDEX_QUERY, { [parameter]: goodValueOf(LOT_FILTERS[wireName(field)]) });
    const filter = lotFilterInput.parse(fromWire(parsed.filters, LOT_FILTER_FIELDS));
    expect(Object.keys(filter)).toEqual([field]);
  });

  it('a text filter over its length is refused by both, at the same length', () => {
    expect(() => parseQuery(LOT_INDEX_QUERY, { 'filter[country]': 'GEOR' })).toThrow();
    expect(lotFilterInput.safeParse({ country: 'GEOR' }).success).toBe(false);
    expect(lotFilterInput.safeParse({ country: 'GEO' }).success).toBe(true);
  });
});
