import type { Caller } from '../../src/core/context';
import { seesLotRow, seesLotRowSql } from '../../src/core/policies';
import { rowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { Lot } from '../../src/modules/lots/lots.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWith } from '../helpers/world';

// A lot's private rows (deposits, callbacks, stars) are paged in SQL with `seesLotRowSql`, shown
// one by one with `seesLotRow`: the two must answer alike for every caller and every row's owner.

const world = appWith(async (t) => {
  const a = await createPlatform(t);
  const b = await createPlatform(t);
  const named = {
    platformA: a,
    organizer: (await createAccount(t, a, { type: 'admin' })).keypair,
    adminA: (await createAccount(t, a, { type: 'admin' })).keypair,
    userA: (await createAccount(t, a)).keypair,
    platformB: b,
    adminB: (await createAccount(t, b, { type: 'admin' })).keypair,
    userB: (await createAccount(t, b)).keypair,
  };
  const lot = await createLot(t, named.organizer, ENG_LOT);
  return { named, lotId: String(lot.id) };
});

const callerOf = (a: Account): Caller => ({ accountId: a.id, accountType: a.accountType, platformId: a.platformId ?? null, trustingPlatforms: a.trustingPlatforms, blacklist: null, keyId: a.id, via: 'signature' });

describe('"sees a lot’s private row": seesLotRow and its SQL twin agree', () => {
  it('for every caller and every owner of the row', async () => {
    const em = world.t.orm.em.fork();
    const lot = await em.findOneOrFail(Lot, { id: world.lotId });
    const accounts = await em.find(Account, { id: { $in: Object.values(world.named).map((k) => k.publicKey()) } });
    const callers: [string, Caller | null][] = [...accounts.map((a): [string, Caller] => [a.id, callerOf(a)]), ['anonymous', null]];
    const inTs: string[] = [];
    const inSql: string[] = [];
    for (const [name, caller] of callers) {
      for (const owner of accounts) {
        const [row] = await rowsOf<{ sees: boolean }>(em, sql`select ${seesLotRowSql(caller, sql`l`, sql`${owner.id}::text`)} as sees from lots l where l.id = ${world.lotId}`);
        if (seesLotRow(caller, lot, owner.id)) inTs.push(`${name} ${owner.id}`);
        if (row.sees === true) inSql.push(`${name} ${owner.id}`);
      }
    }
    expect(inSql).toEqual(inTs);
    // Neither all nor none: the organizer sees every row, a user of the other platform only its own.
    expect(inTs.length).toBeGreaterThan(accounts.length);
    expect(inTs.length).toBeLessThan(callers.length * accounts.length);
  });
});
