import { conflict, DomainError, invalid, notFound } from '../../src/core/errors';

/**
 * The code table closes the set of codes: `npm run typecheck` fails when an expected error below
 * compiles, that is when a code outside the table, or one the table never answers with the
 * helper's status, is accepted.
 */
describe('error codes', () => {
  it('are typed by the table, and a code answered with two statuses takes either helper', () => {
    expect(invalid('lot_not_found', 'lot_id names no lot').status).toBe(400);
    expect(notFound('lot_not_found', 'no such lot').status).toBe(404);
    // @ts-expect-error a typo is no code of the table
    expect(invalid('invalid_feild', 'x').code).toBe('invalid_feild');
    // @ts-expect-error the table answers lot_not_found with 400 and 404, never 409
    expect(conflict('lot_not_found', 'x').status).toBe(409);
    // @ts-expect-error the kind's status must be one the table gives the code
    expect(DomainError.of('rate_limited', 'lot_not_found', 'x').status).toBe(429);
  });
});
