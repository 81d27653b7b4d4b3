import type { Caller } from '../../src/core/context';
import { seesParticipant, seesParticipantSql } from '../../src/core/policies';
import { rowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { Lot } from '../../src/modules/lots/lots.entity';
import { Participant } from '../../src/modules/trading/trading.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWith } from '../helpers/world';

/**
 * A lot of platform A that B's user joined (its deposit still due: a pending request). The
 * participant filters (has_participants, has_participants_from, has_requests) see the
 * participants the caller may see: the lot's managers, the participant itself and staff of its
 * platform; a third platform's staff may not probe who takes part.
 */
const world = appWith(async (t) => {
  const a = await createPlatform(t);
  const b = await createPlatform(t);
  const c = await createPlatform(t);
  const named = {
    platformA: a,
    adminA: (await createAccount(t, a, { type: 'admin' })).keypair,
    userA: (await createAccount(t, a)).keypair,
    participant: (await createAccount(t, b)).keypair,
    platformB: b,
    adminB: (await createAccount(t, b, { type: 'admin' })).keypair,
    platformC: c,
    adminC: (await createAccount(t, c, { type: 'admin' })).keypair,
    userB: (await createAccount(t, b)).keypair,
  };
  const lot = await createLot(t, a, ENG_LOT);
  const joined = await t.client
    .as(named.participant)
    .post(`/lots/${lot.id}/participation_requests`, { data: { type: 'participation_requests', attributes: { lot_id: Number(lot.id), buy_now: false } } });
  if (joined.status !== 204) throw new Error(`participation failed: ${joined.status} ${joined.text}`);
  return { named, lotId: lot.id, platformB: b.publicKey() };
});

type Name = keyof typeof world.named;
const names = () => Object.keys(world.named) as Name[];
const callerOf = (a: Account): Caller => ({ accountId: a.id, accountType: a.accountType, platformId: a.platformId ?? null, trustingPlatforms: a.trustingPlatforms, blacklist: null, keyId: a.id, via: 'signature' });
const SEE = ['platformA', 'adminA', 'participant', 'platformB', 'adminB'] as const;
const BLIND = ['userA', 'userB', 'platformC', 'adminC', 'anonymous'] as const;

describe('"sees a lot’s participant": seesParticipant and its SQL twin agree on the same participant', () => {
  it('for every caller', async () => {
    const em = world.t.orm.em.fork();
    const lot = await em.findOneOrFail(Lot, { id: world.lotId });
    const participant = await em.findOneOrFail(Participant, { lotId: world.lotId });
    const account = await em.findOneOrFail(Account, { id: participant.accountId });
    const rows = await em.find(Account, { id: { $in: names().map((n) => world.named[n].publicKey()) } });
    const callers: [string, Caller | null][] = [...names().map((n): [string, Caller] => [n, callerOf(rows.find((r) => r.id === world.named[n].publicKey()) as Account)]), ['anonymous', null]];
    const seen: Record<string, boolean[]> = {};
    for (const [name, caller] of callers) {
      const [row] = await rowsOf<{ sees: boolean }>(
        em,
        sql`select ${seesParticipantSql(caller, sql`l`, sql`x.account_id`)} as sees from lots l join participants x on x.lot_id = l.id where x.id = ${participant.id}`,
      );
      seen[name] = [seesParticipant(caller, lot, account), row.sees === true];
    }
    expect(seen).toEqual(Object.fromEntries([...SEE.map((n) => [n, [true, true]]), ...BLIND.map((n) => [n, [false, false]])]));
  });
});

describe('filter[has_participants], filter[has_participants_from] and filter[has_requests]', () => {
  const clientOf = (name: Name | 'anonymous') => (name === 'anonymous' ? world.t.client : world.t.client.as(world.named[name]));
  const rest = async (name: Name | 'anonymous', filter: string) => {
    const res = await clientOf(name).get(`/lots/count?filter[in]=${world.lotId}&${filter}`);
    expect(res.status).toBe(200);
    return Number(res.body.data.id);
  };
  const listed = async (name: Name | 'anonymous', filter: string) => {
    const res = await clientOf(name).get(`/lots?filter[in]=${world.lotId}&${filter}`);
    expect(res.status).toBe(200);
    return res.body.data.length as number;
  };
  const graphql = async (name: Name | 'anonymous', filter: string) => {
    const res = await clientOf(name).graphql(`{ lotsCount(filter: { in: ["${world.lotId}"], ${filter} }) }`);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.lotsCount as number;
  };
  const probes = async (name: Name | 'anonymous') => [
    name,
    await rest(name, 'filter[has_participants]=true'),
    await listed(name, `filter[has_participants_from]=${world.platformB}`),
    await rest(name, 'filter[has_requests]=true'),
    await rest(name, 'filter[has_participants]=false'),
    await graphql(name, 'hasParticipants: true'),
    await graphql(name, `hasParticipantsFrom: ["${world.platformB}"]`),
    await graphql(name, 'hasRequests: true'),
    await graphql(name, 'hasParticipants: false'),
  ];

  it('find the participant for the lot’s managers, the participant itself and its platform’s staff, over REST and GraphQL', async () => {
    for (const name of SEE) expect(await probes(name)).toEqual([name, 1, 1, 1, 0, 1, 1, 1, 0]);
  });

  it('tell nobody else that anyone takes part, a third platform’s staff and the participant’s fellow users included, over REST and GraphQL', async () => {
    for (const name of BLIND) expect(await probes(name)).toEqual([name, 0, 0, 0, 1, 0, 0, 0, 1]);
  });
});

describe('include=participants and Lot.participants show the participants the filters count', () => {
  const clientOf = (name: Name | 'anonymous') => (name === 'anonymous' ? world.t.client : world.t.client.as(world.named[name]));
  const counted = async (name: Name | 'anonymous') => Number((await clientOf(name).get(`/lots/count?filter[in]=${world.lotId}&filter[has_participants]=true`)).body.data.id);
  const included = async (name: Name | 'anonymous') => {
    const res = await clientOf(name).get(`/lots?filter[in]=${world.lotId}&include=participants`);
    expect(res.status).toBe(200);
    return ((res.body.included ?? []) as { type: string }[]).filter((r) => r.type === 'participants').length;
  };
  const resolved = async (name: Name | 'anonymous') => {
    const res = await clientOf(name).graphql(`{ lot(id: "${world.lotId}") { participants { accountId } } }`);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.lot.participants.map((p: { accountId: string }) => p.accountId);
  };

  it('the participant’s own platform’s staff, who manage nothing of the lot, see it in all three; a third platform’s staff in none', async () => {
    const participant = world.named.participant.publicKey();
    for (const name of [...SEE, ...BLIND]) {
      const sees = (SEE as readonly string[]).includes(name);
      expect([name, await counted(name), await included(name), await resolved(name)]).toEqual([name, sees ? 1 : 0, sees ? 1 : 0, sees ? [participant] : []]);
    }
  });
});
