import { DomainError } from '../../src/core/errors';
import { parseQuery, type QuerySpec } from '../../src/rest/query';
import { wireName } from '../../src/rest/fields';

const SPEC: QuerySpec = { plain: { currency: { kind: 'string' } }, filters: { search: { kind: 'string' } }, page: 'cursor' };

function codeOf(raw: Record<string, string>): { code: string; parameter: unknown } {
  try {
    parseQuery(SPEC, raw);
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, parameter: (err.items[0].source as { parameter?: string }).parameter };
    throw err;
  }
  throw new Error('parsed');
}

describe('query parsing takes no inherited object name for a known key', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('filter[%s] is an unknown filter; %s an unknown parameter', (name) => {
    expect(codeOf({ [`filter[${name}]`]: 'x' })).toEqual({ code: 'unknown_filter', parameter: `filter[${name}]` });
    expect(codeOf({ [name]: 'x' })).toEqual({ code: 'unknown_parameter', parameter: name });
    expect(codeOf({ [`page[${name.replace(/_/g, '')}]`]: '1' }).code).toBe('unknown_parameter');
  });

  it('names inherited ones on the wire as their snake_case', () => {
    expect(wireName('constructor')).toBe('constructor');
    expect(wireName('toString')).toBe('to_string');
  });
});
