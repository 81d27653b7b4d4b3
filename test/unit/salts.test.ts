import { newSalt } from '../../src/modules/bidlog/bidlog.chain';

// A bidder's commitment hides the account behind its salt: a salt repeated or guessable would
// let anyone who saw one bid's salt link it to another's. Salts come from a pool the generator refills.
describe('the salts of bid log commitments', () => {
  it('are 16 random bytes each, never repeated across refills of the pool', () => {
    const salts = Array.from({ length: 2000 }, () => newSalt());
    expect(salts.every((s) => /^[0-9a-f]{32}$/.test(s))).toBe(true);
    expect(new Set(salts).size).toBe(salts.length);
    // No salt is the zero-filled pool's, nor one byte repeated: the pool is filled before it is cut.
    expect(salts.filter((s) => /^(..)\1{15}$/.test(s))).toEqual([]);
  });
});
