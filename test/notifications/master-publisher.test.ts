import type { Caller } from '../../src/core/context';
import { isStaffOf, staffOfSql, staffQuery } from '../../src/core/policies';
import { rowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { Lot, LotType } from '../../src/modules/lots/lots.entity';
import { importLots } from '../../src/modules/lots/lots.import';
import { createAccount, createPlatform } from '../helpers/factories';
import { appWith } from '../helpers/world';
import { feedLine } from '../import/helpers';

/**
 * The master account publishes the lots it imports (`npm run import:lots` without `--platform`).
 * It is their publisher's staff as every platform is its own lots': the notifications for staff
 * of the publisher reach it, and nobody else.
 */
const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const admin = (await createAccount(t, platform, { type: 'admin' })).keypair;
  const buyers = [(await createAccount(t, platform)).keypair, (await createAccount(t, platform)).keypair];
  const master = t.master.publicKey();
  await importLots(t.orm.em.fork(), 'partnerA', [feedLine()], { platformId: master });
  const lot = await t.orm.em.fork().findOneOrFail(Lot, { lotType: LotType.PartnerA, publisherId: master });
  return { platform, admin, buyers, master, lotId: lot.id };
});

const callerOf = (a: Account): Caller => ({ accountId: a.id, accountType: a.accountType, platformId: a.platformId ?? null, trustingPlatforms: a.trustingPlatforms, blacklist: null, keyId: a.id, via: 'signature' });

describe('"staff of the master account": isStaffOf, staffOfSql and staffQuery agree', () => {
  it('the master account alone is staff of itself', async () => {
    const em = world.t.orm.em.fork();
    const ids = [world.master, world.platform.publicKey(), world.admin.publicKey()];
    const staff = (await rowsOf<{ id: string }>(em, staffQuery(world.master))).map((r) => r.id);
    const seen: Record<string, boolean[]> = {};
    for (const account of await em.find(Account, { id: { $in: ids } })) {
      const caller = callerOf(account);
      const [row] = await rowsOf<{ staff: boolean }>(em, sql`select ${staffOfSql(caller, sql`${world.master}::text`)} as staff`);
      seen[account.id] = [isStaffOf(caller, world.master), row.staff === true, staff.includes(account.id)];
    }
    expect(seen).toEqual({ [world.master]: [true, true, true], [world.platform.publicKey()]: [false, false, false], [world.admin.publicKey()]: [false, false, false] });
  });
});

describe('callback_requested on a lot the master account publishes', () => {
  const callbacks = (items: { type_str?: string; typeStr?: string; meta: Record<string, string> }[]) =>
    items.filter((n) => (n.type_str ?? n.typeStr) === 'callback_requested' && n.meta.lot_id === world.lotId).map((n) => n.meta.account_id);

  it('reaches the master account, asked over REST and GraphQL, read over REST and GraphQL', async () => {
    const [viaRest, viaGraphql] = world.buyers;
    expect((await world.t.client.as(viaRest).post(`/lots/${world.lotId}/callbacks`)).status).toBe(201);
    const asked = await world.t.client.as(viaGraphql).graphql('mutation($l: String!) { requestCallback(lotId: $l) { id } }', { l: world.lotId });
    expect(asked.body.errors).toBeUndefined();

    const rest = await world.t.client.as(world.t.master).get('/notifications');
    expect(rest.status).toBe(200);
    expect(callbacks(rest.body.data.map((n: any) => n.attributes)).sort()).toEqual([viaRest.publicKey(), viaGraphql.publicKey()].sort());
    const graphql = await world.t.client.as(world.t.master).graphql('{ notifications { items { typeStr meta } } }');
    expect(graphql.body.errors).toBeUndefined();
    expect(callbacks(graphql.body.data.notifications.items).sort()).toEqual([viaRest.publicKey(), viaGraphql.publicKey()].sort());
  });

  it('reaches no platform’s staff', async () => {
    for (const who of [world.platform, world.admin]) {
      const res = await world.t.client.as(who).get('/notifications');
      expect(callbacks(res.body.data.map((n: any) => n.attributes))).toEqual([]);
    }
  });
});
