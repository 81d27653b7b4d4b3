import type { Caller } from '../../src/core/context';
import { isStaffOf, seesFullAccount, seesFullAccountSql, staffOfSql, staffPlatforms, staffQuery } from '../../src/core/policies';
import { rowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { appWith } from '../helpers/world';

/** Two platforms, A and B, with staff and customers of each; one admin of B is trusted by A. */
const world = appWith(async (t) => {
  const a = await createPlatform(t);
  const b = await createPlatform(t);
  const named = {
    platformA: a.publicKey(),
    platformB: b.publicKey(),
    adminA: (await createAccount(t, a, { type: 'admin' })).id,
    adminB: (await createAccount(t, b, { type: 'admin' })).id,
    adminBTrustedByA: (await createAccount(t, b, { type: 'admin' })).id,
    brokerA: (await createAccount(t, a, { type: 'broker' })).id,
    userA: (await createAccount(t, a)).id,
    userB: (await createAccount(t, b)).id,
  };
  await t.orm.em.fork().nativeUpdate(Account, { id: named.adminBTrustedByA }, { trustingPlatforms: [named.platformA] });
  return { named };
});

type Name = keyof typeof world.named;

async function accounts(): Promise<Map<Name, Account>> {
  const rows = await world.t.orm.em.fork().find(Account, { id: { $in: Object.values(world.named) } });
  const nameOf = (id: string) => (Object.keys(world.named) as Name[]).find((n) => world.named[n] === id) as Name;
  return new Map(rows.map((r) => [nameOf(r.id), r]));
}

const callerOf = (a: Account): Caller => ({ accountId: a.id, accountType: a.accountType, platformId: a.platformId ?? null, trustingPlatforms: a.trustingPlatforms, blacklist: null, keyId: a.id, via: 'signature' });

describe('"staff of platform": isStaffOf, staffPlatforms, staffOfSql and staffQuery agree on the same rows', () => {
  it('for each account and both platforms, and for no caller', async () => {
    const em = world.t.orm.em.fork();
    const all = await accounts();
    const platforms: Name[] = ['platformA', 'platformB'];
    const seen: Record<string, boolean[]> = {};
    const staffLists = new Map<Name, string[]>();
    for (const p of platforms) staffLists.set(p, (await rowsOf<{ id: string }>(em, staffQuery(world.named[p]))).map((r) => r.id));
    for (const [name, account] of [...all, ['anonymous', null] as const]) {
      const caller = account && callerOf(account);
      const inSql = await rowsOf<{ id: string; staff: boolean }>(em, sql`select p.id, ${staffOfSql(caller, sql`p.id`)} as staff from accounts p where p.id in (${sql.list(platforms.map((p) => world.named[p]))})`);
      for (const p of platforms) {
        const id = world.named[p];
        seen[`${name} of ${p}`] = [
          isStaffOf(caller, id),
          inSql.find((r) => r.id === id)?.staff === true,
          caller !== null && staffPlatforms(caller).includes(id),
          caller !== null && (staffLists.get(p) as string[]).includes(caller.accountId),
        ];
      }
    }
    const staff = new Set(['platformA of platformA', 'adminA of platformA', 'adminBTrustedByA of platformA', 'platformB of platformB', 'adminB of platformB', 'adminBTrustedByA of platformB']);
    const expected = Object.fromEntries(Object.keys(seen).map((k) => [k, Array(4).fill(staff.has(k))]));
    expect(seen).toEqual(expected);
  });
});

describe('"sees an account fully": seesFullAccount and seesFullAccountSql agree on the same rows', () => {
  it('for each caller and each account', async () => {
    const em = world.t.orm.em.fork();
    const all = await accounts();
    const seen: Record<string, boolean[]> = {};
    for (const [callerName, account] of [...all, ['anonymous', null] as const]) {
      const caller = account && callerOf(account);
      const inSql = await rowsOf<{ id: string; full: boolean }>(em, sql`select a.id, coalesce(${seesFullAccountSql(caller, sql`a`)}, false) as full from accounts a where a.id in (${sql.list(Object.values(world.named))})`);
      for (const [name, target] of all) seen[`${callerName} sees ${name}`] = [seesFullAccount(caller, target), inSql.find((r) => r.id === target.id)?.full === true];
    }
    // Each account's platform (a platform is its own), and the platforms each caller is staff of.
    const platformOf: Record<Name, Name> = { platformA: 'platformA', adminA: 'platformA', brokerA: 'platformA', userA: 'platformA', platformB: 'platformB', adminB: 'platformB', adminBTrustedByA: 'platformB', userB: 'platformB' };
    const staffOf: Partial<Record<string, Name[]>> = { platformA: ['platformA'], adminA: ['platformA'], platformB: ['platformB'], adminB: ['platformB'], adminBTrustedByA: ['platformB', 'platformA'] };
    const full = (k: string) => {
      const [caller, target] = k.split(' sees ') as [string, Name];
      return caller === target || (staffOf[caller] ?? []).includes(platformOf[target]);
    };
    const expected = Object.fromEntries(Object.keys(seen).map((k) => [k, [full(k), full(k)]]));
    expect(seen).toEqual(expected);
    // The cases the rule is about, spelt out.
    expect(seen['adminA sees brokerA']).toEqual([true, true]);
    expect(seen['brokerA sees userA']).toEqual([false, false]);
    expect(seen['userA sees userA']).toEqual([true, true]);
    expect(seen['adminB sees userA']).toEqual([false, false]);
    expect(seen['adminBTrustedByA sees userA']).toEqual([true, true]);
    expect(seen['anonymous sees userA']).toEqual([false, false]);
  });
});
