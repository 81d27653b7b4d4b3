import { Keypair } from '@stellar/stellar-sdk';
import { FIELD_STATEMENT_COST } from '../../src/graphql/statement-cost';
import { startTestApp, type TestApp } from '../helpers/app';
import { statementsSent } from '../helpers/statements';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
/** The most aliases of a statement field with a one-field selection (cost 1 + its statement + 1) an operation holds. */
const most = () => Math.floor(t.config.GRAPHQL_MAX_COST / (FIELD_STATEMENT_COST + 2));

describe('fields that run a statement each (an outside test: 300 aliased ledgerAccount, twenty requests at once, held the pool)', () => {
  const ledgerAccount = `ledgerAccount(id: "${Keypair.random().publicKey()}") { __typename }`;

  it.each([
    ['ledgerAccount', ledgerAccount, 300],
    ['buyingPower', 'buyingPower(accountId: "1") { __typename }', 400],
    ['feeEstimate', 'feeEstimate(lotId: "1", amount: "100") { __typename }', 300],
    ['unreadMessages', 'unreadMessages', 400],
    ['ping', 'ping { currentTime }', 300],
  ])('refuses %s stacked in aliases with 400 query_too_costly naming the limit, before any SQL runs', async (_, field, n) => {
    let res: Awaited<ReturnType<TestApp['client']['graphql']>> | undefined;
    const sent = await statementsSent(async () => {
      res = await t.client.graphql(aliases(n, field));
    });
    const cost = n * (FIELD_STATEMENT_COST + 1 + (field.includes('{') ? 1 : 0));
    expect({ status: res?.status, data: res?.body.data, errors: res?.body.errors, sent: sent.length }).toEqual({
      status: 400,
      data: undefined,
      errors: [expect.objectContaining({ message: `the query costs ${cost}, more than the limit of ${t.config.GRAPHQL_MAX_COST}`, extensions: { code: 'query_too_costly', status: 400 } })],
      sent: 0,
    });
  });

  it(`answers as many aliases as the limit holds (${Math.floor(20_000 / (FIELD_STATEMENT_COST + 2))} at the default), one statement each, and refuses one more`, async () => {
    const refused = await t.client.graphql(aliases(most() + 1, ledgerAccount));
    expect(refused.body.errors[0].extensions.code).toBe('query_too_costly');
    let res: Awaited<ReturnType<TestApp['client']['graphql']>> | undefined;
    const sent = await statementsSent(async () => {
      res = await t.client.graphql(aliases(most(), ledgerAccount));
    });
    expect(res?.status).toBe(200);
    expect(Object.keys(res?.body.data ?? {})).toHaveLength(most());
    expect(sent.length).toBeLessThanOrEqual(most());
  });

  it('counts a keyset page once however many aliases ask its totalCount', async () => {
    const count = async (n: number) => (await statementsSent(() => t.client.graphql(`{ lots(first: 1) { ${Array.from({ length: n }, (_, i) => `t${i}: totalCount`).join(' ')} } }`))).length;
    expect(await count(200)).toBe(await count(1));
  });
});

describe('operations and fragments a document defines (an outside test: 600 operations validated for up to 200 ms each request)', () => {
  const named = (ops: string[], i: number) => t.client.post('/graphql', { query: ops.join('\n'), operationName: ops[i].split(' ')[1] }, { contentType: 'application/json' });
  // Names a parse cache has not seen, as the outside test's were.
  const operations = (n: number) => Array.from({ length: n }, (_, i) => `query Q${i}${Math.random().toString(36).slice(2)} { __typename }`);

  it('refuses 600 operations with 400 query_too_costly naming the limit, whichever is asked', async () => {
    const ops = operations(600);
    const res = await named(ops, 5);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: 'the document defines 600 operations, more than the limit of 20', extensions: { code: 'query_too_costly', status: 400 } })]);
  });

  it('refuses more fragments than a document may spread', async () => {
    const fragments = Array.from({ length: 33 }, (_, i) => `fragment F${i} on Query { __typename }`).join('\n');
    const res = await t.client.graphql(`{ ...F0 }\n${fragments}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('the document defines 33 fragments, more than the limit of 32');
  });

  it('runs the one asked of twenty', async () => {
    const ops = operations(20);
    const res = await named(ops, 5);
    expect({ status: res.status, data: res.body.data }).toEqual({ status: 200, data: { __typename: 'Query' } });
  });
});
