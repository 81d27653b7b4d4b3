import type { Caller } from '../../src/core/context';
import { managesLot, managesLotSql, seesWinnerDetails, seesWinnerDetailsSql } from '../../src/core/policies';
import { rowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { Lot } from '../../src/modules/lots/lots.entity';
import { WinnerDetails } from '../../src/modules/trading/trading.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWith } from '../helpers/world';

/**
 * A lot of platform A sold to A's user, its invoice sent and paid. The winner-details filters
 * (invoice_sent, invoice_paid) see the details the caller may see: its managers and its winner;
 * to anyone else, another platform's staff included, a deal's invoice is not theirs to learn.
 */
const world = appWith(async (t) => {
  const a = await createPlatform(t);
  const b = await createPlatform(t);
  const named = {
    platformA: a,
    adminA: (await createAccount(t, a, { type: 'admin' })).keypair,
    winner: (await createAccount(t, a)).keypair,
    userA: (await createAccount(t, a)).keypair,
    platformB: b,
    adminB: (await createAccount(t, b, { type: 'admin' })).keypair,
  };
  const lot = await createLot(t, a, ENG_LOT);
  const em = t.orm.em.fork();
  em.create(WinnerDetails, { lotId: lot.id, invoiceId: 'inv.pdf', invoicePaid: true });
  await em.flush();
  await em.nativeUpdate(Lot, { id: lot.id }, { winnerId: named.winner.publicKey() });
  return { named, lotId: lot.id };
});

type Name = keyof typeof world.named;
const names = () => Object.keys(world.named) as Name[];
const callerOf = (a: Account): Caller => ({ accountId: a.id, accountType: a.accountType, platformId: a.platformId ?? null, trustingPlatforms: a.trustingPlatforms, blacklist: null, keyId: a.id, via: 'signature' });

async function callers(): Promise<[string, Caller | null][]> {
  const rows = await world.t.orm.em.fork().find(Account, { id: { $in: names().map((n) => world.named[n].publicKey()) } });
  return [...names().map((n): [string, Caller] => [n, callerOf(rows.find((r) => r.id === world.named[n].publicKey()) as Account)]), ['anonymous', null]];
}

describe('"manages a lot" and "sees its winner details": the TypeScript rules and their SQL twins agree on the same row', () => {
  it('for every caller', async () => {
    const em = world.t.orm.em.fork();
    const lot = await em.findOneOrFail(Lot, { id: world.lotId });
    const seen: Record<string, boolean[]> = {};
    for (const [name, caller] of await callers()) {
      const [row] = await rowsOf<{ manages: boolean; details: boolean }>(em, sql`select ${managesLotSql(caller, sql`l`)} as manages, ${seesWinnerDetailsSql(caller, sql`l`)} as details from lots l where l.id = ${world.lotId}`);
      seen[name] = [managesLot(caller, lot), row.manages === true, seesWinnerDetails(caller, lot), row.details === true];
    }
    expect(seen).toEqual({
      platformA: [true, true, true, true],
      adminA: [true, true, true, true],
      winner: [false, false, true, true],
      userA: [false, false, false, false],
      platformB: [false, false, false, false],
      adminB: [false, false, false, false],
      anonymous: [false, false, false, false],
    });
  });
});

describe('filter[invoice_paid] and filter[invoice_sent]', () => {
  const rest = async (name: Name | 'anonymous', filter: string) => {
    const client = name === 'anonymous' ? world.t.client : world.t.client.as(world.named[name]);
    const res = await client.get(`/lots/count?filter[in]=${world.lotId}&${filter}`);
    expect(res.status).toBe(200);
    return Number(res.body.data.id);
  };
  const graphql = async (name: Name | 'anonymous', filter: string) => {
    const client = name === 'anonymous' ? world.t.client : world.t.client.as(world.named[name]);
    const res = await client.graphql(`{ lotsCount(filter: { in: ["${world.lotId}"], ${filter} }) }`);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.lotsCount as number;
  };

  it('find the paid deal for its managers and its winner, over REST and GraphQL', async () => {
    for (const name of ['platformA', 'adminA', 'winner'] as const) {
      expect([name, await rest(name, 'filter[invoice_paid]=true'), await rest(name, 'filter[invoice_sent]=true'), await graphql(name, 'invoicePaid: true')]).toEqual([name, 1, 1, 1]);
    }
  });

  it('tell nobody else that it is paid, another platform’s admin included, over REST and GraphQL', async () => {
    for (const name of ['userA', 'platformB', 'adminB', 'anonymous'] as const) {
      expect([name, await rest(name, 'filter[invoice_paid]=true'), await rest(name, 'filter[invoice_sent]=true'), await graphql(name, 'invoicePaid: true'), await graphql(name, 'invoiceSent: true')]).toEqual([name, 0, 0, 0, 0]);
    }
  });
});
