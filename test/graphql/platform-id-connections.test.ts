import { Keypair } from '@stellar/stellar-sdk';
import { AccountType } from '../../src/core/account-type';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { appWith } from '../helpers/world';
import { type ConnectionPage, expectWalksBothWays } from './connection.helpers';

// The connection twins of the lists of platform ids: the platforms an admin serves (an operator
// may let it serve any number) and the operator's platforms (they grow). Each pages the old list
// in its order and shows only whom the old list shows it.

jest.setTimeout(120_000);

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const otherPlatform = await createPlatform(t);
  const otherAdmin = await createAccount(t, otherPlatform, { type: 'admin' });
  const em = t.orm.em.fork();
  const trusted = Array.from({ length: 5 }, () => Keypair.random().publicKey());
  const adminId = Keypair.random().publicKey();
  em.create(Account, { id: adminId, accountType: AccountType.Admin, platformId: platform.publicKey(), trustingPlatforms: trusted });
  await em.flush();
  return { platform, otherAdmin, adminId, trusted };
});

const PAGE = 'edges { cursor node } nodes pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount';
const nodesOf = (page: ConnectionPage<string>) => page.edges.map((e) => e.node);

async function ask(who: Keypair | null, query: string): Promise<any> {
  return (await (who ? world.t.client.as(who) : world.t.client).graphql(query)).body;
}

const invalid = (code: string, field: string) => [expect.objectContaining({ extensions: expect.objectContaining({ code, status: 400, errors: [expect.objectContaining({ field })] }) })];

describe('Account.trustingPlatformsConnection', () => {
  const trusting = async (who: Keypair | null, args: string) => {
    const body = await ask(who, `{ account(id: "${world.adminId}") { trustingPlatforms trustingPlatformsConnection(${args}) { ${PAGE} } } }`);
    expect(body.errors).toBeUndefined();
    return body.data.account;
  };

  it('pages forwards and backwards over the platforms the old list shows the platform, counting them all', async () => {
    expect((await trusting(world.platform, 'first: 100')).trustingPlatforms).toEqual(world.trusted);
    await expectWalksBothWays(async (args) => (await trusting(world.platform, args)).trustingPlatformsConnection, nodesOf, world.trusted, 2, { countBackwards: true });
  });

  it('is null where the old list is: another platform’s staff and anonymous callers see the public view', async () => {
    for (const who of [world.otherAdmin.keypair, null]) expect(await trusting(who, 'first: 1')).toEqual({ trustingPlatforms: null, trustingPlatformsConnection: null });
  });

  it('refuses a cursor of the ping’s platforms and a made-up one, and sizes outside 1 to 100, naming the argument', async () => {
    const ping = (await ask(null, `{ ping { platformsConnection(first: 1) { ${PAGE} } } }`)).data.ping.platformsConnection.edges[0].cursor;
    for (const cursor of [ping, Buffer.from(`c1\u0000Account:${world.adminId}.trustingPlatforms\u0000GNOTTHERE`).toString('base64url')]) {
      const body = await ask(world.platform, `{ account(id: "${world.adminId}") { trustingPlatformsConnection(first: 1, after: "${cursor}") { totalCount } } }`);
      expect(body.errors).toEqual(invalid('invalid_cursor', 'after'));
    }
    const body = await ask(world.platform, `{ account(id: "${world.adminId}") { trustingPlatformsConnection(last: 101) { totalCount } } }`);
    expect(body.errors).toEqual(invalid('invalid_page', 'last'));
  });
});

describe('Ping.platformsConnection', () => {
  it('pages forwards and backwards over the platforms the old list answers, oldest first', async () => {
    const body = await ask(null, '{ ping { platforms } }');
    const all: string[] = body.data.ping.platforms;
    expect(all.slice(-3)).toEqual(expect.arrayContaining([world.platform.publicKey()]));
    await expectWalksBothWays(async (args) => (await ask(null, `{ ping { platformsConnection(${args}) { ${PAGE} } } }`)).data.ping.platformsConnection, nodesOf, all, 40, { countBackwards: true });
  });

  it('refuses a cursor of an admin’s platforms and a size outside 1 to 100, naming the argument', async () => {
    const admin = await ask(world.platform, `{ account(id: "${world.adminId}") { trustingPlatformsConnection(first: 1) { edges { cursor } } } }`);
    const cursor = admin.data.account.trustingPlatformsConnection.edges[0].cursor;
    expect((await ask(null, `{ ping { platformsConnection(last: 1, before: "${cursor}") { totalCount } } }`)).errors).toEqual(invalid('invalid_cursor', 'before'));
    expect((await ask(null, '{ ping { platformsConnection(first: 0) { totalCount } } }')).errors).toEqual(invalid('invalid_page', 'first'));
  });
});
