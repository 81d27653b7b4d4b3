import { Keypair } from '@stellar/stellar-sdk';
import { AccountType } from '../../src/core/account-type';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { statementsSent } from '../helpers/statements';
import { appWith } from '../helpers/world';
import { type ConnectionPage, expectWalksBothWays } from './connection.helpers';

// The connection twins of the contact directories, ordered by name as the old lists are: names
// that share a prefix, differ in case only, carry non-ASCII letters, repeat or are missing page
// in the database's order, each page compared there in the order's own collation.

jest.setTimeout(120_000);

/** [last name, first name] of the platform's admins: a tie of whole names is broken by id. */
const NAMES: [string | null, string | null][] = [
  ['Ann', 'Bo'], ['Anna', 'Bo'], ['Annabel', null], ['anna', 'Bo'], ['ANNA', 'Bo'], ['Ánna', 'Bo'], ['Zoë', 'Ål'],
  ['Zoë', 'Al'], ['Zoe', 'Al'], ['Øst', 'ß'], [null, 'Al'], [null, null], ['Lee', 'Ann'], ['Lee', 'Ann'],
];

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const otherPlatform = await createPlatform(t);
  const otherAdmin = await createAccount(t, otherPlatform, { type: 'admin' });
  const em = t.orm.em.fork();
  const create = (platformId: string, accountType: AccountType, [lastName, firstName]: [string | null, string | null], region: string | null = null) =>
    em.create(Account, { id: Keypair.random().publicKey(), accountType, platformId, lastName, firstName, region });
  for (const name of NAMES) create(platform.publicKey(), AccountType.Admin, name, 'Kakheti');
  NAMES.slice(0, 6).forEach((name) => create(platform.publicKey(), AccountType.Broker, name, name[0]?.startsWith('A') ? 'kakheti' : null));
  await em.flush();
  return { platform, otherPlatform, otherAdmin };
});

/** A twin, its old list, and the arguments both take. */
const TWINS: [string, string, string, () => string][] = [
  ['adminsConnection', 'admins', 'a platform', () => `platformId: "${world.platform.publicKey()}"`],
  ['brokersConnection', 'brokers', 'a platform', () => `platformId: "${world.platform.publicKey()}"`],
  ['brokersConnection', 'brokers', 'a region', () => `platformId: "${world.platform.publicKey()}", region: "KAKHETI"`],
];

const SELECTION = 'id firstName lastName email';

async function ask(who: Keypair | null, query: string): Promise<any> {
  return (await (who ? world.t.client.as(who) : world.t.client).graphql(query)).body;
}

async function pageOf(who: Keypair | null, field: string, args: string): Promise<ConnectionPage> {
  const body = await ask(who, `{ ${field}(${args}) { edges { cursor node { ${SELECTION} } } nodes { ${SELECTION} } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`);
  expect(body.errors).toBeUndefined();
  return body.data[field];
}

async function oldOf(who: Keypair | null, list: string, args: string): Promise<Record<string, unknown>[]> {
  const body = await ask(who, `{ ${list}(${args}) { ${SELECTION} } }`);
  expect(body.errors).toBeUndefined();
  return body.data[list];
}

const idsOf = (page: ConnectionPage) => page.edges.map((e) => String(e.node.id));

describe.each(TWINS)('Query.%s as %s of %s', (field, list, _of, args) => {
  it('pages forwards and backwards over the old list, in its order by name, counting it all', async () => {
    const all = (await oldOf(null, list, args())).map((a) => String(a.id));
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const size of [1, 3]) await expectWalksBothWays((a) => pageOf(null, field, `${args()}, ${a}`), idsOf, all, size, { countBackwards: true });
  });

  it('shows anonymous callers and another platform’s staff what the old list shows them, the contact view', async () => {
    for (const who of [null, world.otherAdmin.keypair]) {
      const seen = await oldOf(who, list, args());
      const page = await pageOf(who, field, `${args()}, first: 100`);
      expect(page.nodes).toEqual(seen);
      expect(page.totalCount).toBe(seen.length);
    }
  });

  it('refuses another platform’s cursor, another directory’s and a made-up one, naming the argument', async () => {
    const others = [
      (await pageOf(null, 'adminsConnection', `platformId: "${world.otherPlatform.publicKey()}", first: 1`)).edges[0].cursor,
      (await pageOf(null, field === 'adminsConnection' ? 'brokersConnection' : 'adminsConnection', `platformId: "${world.platform.publicKey()}", first: 1`)).edges[0].cursor,
    ];
    const list = `Query.adminsConnection:${world.platform.publicKey()}`;
    const forged = ['["Ann"]', '["Ann", null, 5]', '[1, null, "GA"]', 'Ann|Bo|GA', '["Ann","Bo","G A"]'].map((p) => Buffer.from(`c1\u0000${list}\u0000${p}`).toString('base64url'));
    for (const cursor of [...others, ...(field === 'adminsConnection' ? forged : []), '1']) {
      for (const arg of ['after', 'before']) {
        const body = await ask(null, `{ ${field}(${args()}, ${arg === 'after' ? 'first' : 'last'}: 1, ${arg}: "${cursor}") { totalCount } }`);
        expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_cursor', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
      }
    }
  });

  it('refuses first and last outside 1 to 100, naming the argument', async () => {
    for (const [arg, size] of [['first', 0], ['first', 101], ['last', 0], ['last', 101]] as const) {
      const body = await ask(null, `{ ${field}(${args()}, ${arg}: ${size}) { totalCount } }`);
      expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_page', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
    }
  });

  it('runs the same statements for a page of one contact and of four', async () => {
    const statementsFor = async (first: number) => {
      let page: ConnectionPage | undefined;
      const sent = await statementsSent(async () => {
        page = await pageOf(null, field, `${args()}, first: ${first}`);
      });
      expect(page?.edges).toHaveLength(first);
      return sent.length;
    };
    await statementsFor(1);
    expect(await statementsFor(4)).toBe(await statementsFor(1));
  });
});

describe('Query.adminsConnection', () => {
  it('orders names as the database collates them: shared prefixes, case, non-ASCII letters, missing names last, ties by id', async () => {
    const page = await pageOf(null, 'adminsConnection', `platformId: "${world.platform.publicKey()}", first: 100`);
    const names = page.nodes.map((n) => [n.lastName, n.firstName]);
    expect(names.slice(-2)).toEqual([[null, 'Al'], [null, null]]);
    const lees = page.nodes.filter((n) => n.lastName === 'Lee').map((n) => String(n.id));
    expect(lees).toEqual([...lees].sort());
    expect(page.totalCount).toBe(NAMES.length);
  });
});
