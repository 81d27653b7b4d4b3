import { Keypair } from '@stellar/stellar-sdk';
import { LedgerBalance } from '../../src/modules/ledger/ledger.entity';
import { createPlatform, insertSigner } from '../helpers/factories';
import { statementsSent } from '../helpers/statements';
import { appWith } from '../helpers/world';
import { type ConnectionPage, expectWalksBothWays } from './connection.helpers';

// The connection twins of a ledger account's balances and signers: anyone may send an account
// assets of any issuer and the loopback may add master signers without end, so neither list is
// bounded by a rule. Each pages the old list's rows in its order; ledger accounts are public.

jest.setTimeout(120_000);

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const other = await createPlatform(t);
  const em = t.orm.em.fork();
  for (const id of [platform.publicKey(), other.publicKey()]) {
    for (let i = 0; i < 5; i++) em.create(LedgerBalance, { accountId: id, assetCode: `A${i}`, assetIssuer: Keypair.random().publicKey(), balance: 1n });
  }
  await em.flush();
  for (const id of [platform.publicKey(), other.publicKey()]) for (let i = 0; i < 4; i++) await insertSigner(t.orm, id, Keypair.random());
  return { platform, other };
});

/** A twin, its old list, and the fields that key a node. */
const TWINS: [string, string, string][] = [
  ['balancesConnection', 'balances', 'assetCode assetIssuer'],
  ['signersConnection', 'signers', 'key'],
];

async function ledgerOf(id: string, selection: string): Promise<any> {
  return (await world.t.client.graphql(`query($id: String!) { ledgerAccount(id: $id) { ${selection} } }`, { id })).body;
}

async function pageOf(field: string, keys: string, args: string, id = world.platform.publicKey()): Promise<ConnectionPage> {
  const body = await ledgerOf(id, `${field}(${args}) { edges { cursor node { ${keys} } } nodes { ${keys} } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount }`);
  expect(body.errors).toBeUndefined();
  return body.data.ledgerAccount[field];
}

const keyOf = (node: Record<string, unknown>) => Object.values(node).join(':');

describe.each(TWINS)('LedgerAccount.%s', (field, list, keys) => {
  it('pages forwards and backwards over the old list in its order, counting it all', async () => {
    const body = await ledgerOf(world.platform.publicKey(), `${list} { ${keys} }`);
    const all: string[] = body.data.ledgerAccount[list].map(keyOf);
    expect(all.length).toBeGreaterThanOrEqual(5);
    await expectWalksBothWays((args) => pageOf(field, keys, args), (page) => page.edges.map((e) => keyOf(e.node)), all, 2, { countBackwards: true });
  });

  it('refuses another account’s cursor and a made-up one, naming the argument', async () => {
    const foreign = (await pageOf(field, keys, 'first: 1', world.other.publicKey())).edges[0].cursor;
    for (const cursor of [foreign, Buffer.from(`c1\u0000LedgerAccount:${world.platform.publicKey()}.${list}\u0000nothing`).toString('base64url'), '1']) {
      for (const arg of ['after', 'before']) {
        const body = await ledgerOf(world.platform.publicKey(), `${field}(${arg === 'after' ? 'first' : 'last'}: 1, ${arg}: "${cursor}") { totalCount }`);
        expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_cursor', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
      }
    }
  });

  it('refuses first and last outside 1 to 100, naming the argument', async () => {
    for (const [arg, size] of [['first', 0], ['first', 101], ['last', 0], ['last', 101]] as const) {
      const body = await ledgerOf(world.platform.publicKey(), `${field}(${arg}: ${size}) { totalCount }`);
      expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_page', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
    }
  });

  it('runs the same statements for a page of one row and of four', async () => {
    const statementsFor = async (first: number) => {
      let page: ConnectionPage | undefined;
      const sent = await statementsSent(async () => {
        page = await pageOf(field, keys, `first: ${first}`);
      });
      expect(page?.edges).toHaveLength(first);
      return sent.length;
    };
    await statementsFor(1);
    expect(await statementsFor(4)).toBe(await statementsFor(1));
  });
});
