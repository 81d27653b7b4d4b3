import type { Keypair } from '@stellar/stellar-sdk';
import { LotState, Lot } from '../../src/modules/lots/lots.entity';
import { NotificationType as N } from '../../src/modules/notifications/notifications.entity';
import { reserveLapsed } from '../../src/modules/lots/lots.reserve';
import { DepositState, ParticipantState, type Participant } from '../../src/modules/trading/trading.entity';
import type { TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { expected, notificationsOf, startTwoInstances, waitFor, type TwoInstances } from '../jobs/jobs.helpers';
import { depositOf, join, participantOf, pay } from '../trading/trading.helpers';
import { bid, setRules } from './rules.helpers';

// Two instances on one database, both working the job queue: the end and lapse jobs run on either.
let s: TwoInstances;
let platform: Keypair;
let plain: Keypair;
let users: CreatedAccount[];

const LAPSE_AFTER = 2;
const RESERVED = { ...ENG_LOT, reserve_price: '3000', duration: 86400 };

beforeAll(async () => {
  s = await startTwoInstances();
  platform = await createPlatform(s.a);
  plain = await createPlatform(s.a);
  users = [];
  for (let i = 0; i < 3; i++) users.push(await createAccount(s.a, platform));
  await setRules(s.a, platform, { reserve_lapse_after: LAPSE_AFTER });
}, 60_000);
afterAll(() => s?.close());

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const lotOf = (t: TestApp, id: string) => t.orm.em.fork().findOneOrFail(Lot, { id });

/** Brings a lot to its last seconds, with the jobs of its new end, as if it had been created long ago. */
async function endIn(lot: Lot, ms: number): Promise<Date> {
  const end = new Date(Math.ceil((Date.now() + ms) / 1000) * 1000);
  await s.a.orm.em.fork().nativeUpdate(Lot, { id: lot.id }, { endTime: end });
  await s.a.app.services.lotClock.lotTimesSet([{ id: lot.id, lotType: lot.lotType, endTime: end }]);
  return end;
}

const ofLot = async (types: number[], lotId: string) => (await notificationsOf(s.a, types)).filter((n) => n.meta.lot_id === lotId);

it('tells the organizer and the highest bidder at the end, then lapses the lot: finished, deposits returned, lot_lapsed', async () => {
  const lot = await createLot(s.a, platform, RESERVED);
  const [high, low, idle] = users;
  const participants: Participant[] = [];
  for (const u of users) participants.push(await join(s.a, u.keypair, lot.id));
  for (const p of participants) await pay(s.a, platform, p);
  expect((await bid(s.b, low.keypair, lot.id, { amount: '1500' })).status).toBe(204);
  expect((await bid(s.a, high.keypair, lot.id, { amount: '2000' })).status).toBe(204);
  const end = await endIn(lot, 2000);

  await waitFor('reserve_not_met', async () => (await ofLot([N.ReserveNotMet], lot.id)).length === 2, 20_000);
  expect(await ofLot([N.ReserveNotMet], lot.id)).toEqual(
    expected([platform.publicKey(), high.id].map((recipient) => ({ recipient, type: N.ReserveNotMet, meta: { lot_id: lot.id } }))),
  );
  await waitFor('the lapse', async () => (await lotOf(s.a, lot.id)).lotState === LotState.Finished, 20_000);
  const lapsed = await lotOf(s.a, lot.id);
  expect(reserveLapsed(lapsed)).toBe(true);
  expect(lapsed.lapsedAt?.getTime()).toBeGreaterThanOrEqual(end.getTime() + LAPSE_AFTER * 1000);
  expect(lapsed.winnerId).toBeNull();
  for (const u of [high, low, idle]) {
    const p = await participantOf(s.a, lot.id, u.id);
    expect(p.state).toBe(ParticipantState.Lost);
    expect((await depositOf(s.a, p)).state).toBe(DepositState.Returned);
  }
  await waitFor('lot_lapsed', async () => (await ofLot([N.LotLapsed], lot.id)).length === 2);
  expect(await ofLot([N.LotLapsed], lot.id)).toEqual(expected([platform.publicKey(), high.id].map((recipient) => ({ recipient, type: N.LotLapsed, meta: { lot_id: lot.id } }))));
  // Sent once, whichever instance ran the jobs.
  expect(await ofLot([N.ReserveNotMet, N.LotLapsed], lot.id)).toHaveLength(4);

  const shown = (await s.b.client.as(platform).get(`/lots/${lot.id}`)).body.data.attributes;
  expect(shown).toMatchObject({ lot_state: LotState.Finished, reserve_met: false, reserve_price: '3000.00', lapsed_at: lapsed.lapsedAt?.toISOString().replace(/\.\d{3}Z$/, 'Z') });
  const gql = await s.b.client.graphql('query ($id: ID!) { lot(id: $id) { lotStateStr reserveMet lapsedAt } }', { id: lot.id });
  expect(gql.body.data.lot).toMatchObject({ lotStateStr: 'lot_state_finished', reserveMet: false });
  expect(gql.body.data.lot.lapsedAt).toBe(shown.lapsed_at);
  const listed = await s.a.client.as(high.keypair).get('/notifications');
  expect(listed.body.data.map((n: { attributes: { type_str: string } }) => n.attributes.type_str)).toEqual(expect.arrayContaining(['reserve_not_met', 'lot_lapsed']));
}, 60_000);

it('never lapses a lot whose platform sets no reserve_lapse_after, yet tells the organizer (no bid: no bidder to tell)', async () => {
  const lot = await createLot(s.a, plain, RESERVED);
  await endIn(lot, 1000);
  await waitFor('reserve_not_met', async () => (await ofLot([N.ReserveNotMet], lot.id)).length === 1, 20_000);
  expect(await ofLot([N.ReserveNotMet], lot.id)).toEqual([{ recipient: plain.publicKey(), type: N.ReserveNotMet, meta: { lot_id: lot.id } }]);
  await new Promise((resolve) => setTimeout(resolve, (LAPSE_AFTER + 1) * 1000));
  const kept = await lotOf(s.a, lot.id);
  expect(kept.lotState).toBe(LotState.Pending);
  expect(reserveLapsed(kept)).toBe(false);
}, 40_000);

it('keeps a lot whose winner was chosen before the lapse, and sends no reserve notice for a reserve that was met', async () => {
  const chosen = await createLot(s.a, platform, { ...RESERVED, deposit: '0' });
  const met = await createLot(s.a, platform, { ...RESERVED, deposit: '0', reserve_price: '1200' });
  const [a, , b] = users;
  const pa = await join(s.a, a.keypair, chosen.id);
  await join(s.a, a.keypair, met.id);
  await join(s.a, b.keypair, met.id);
  expect((await bid(s.a, a.keypair, chosen.id, { amount: '1000' })).status).toBe(204);
  expect((await bid(s.a, a.keypair, met.id, { amount: '1000' })).status).toBe(204);
  expect((await bid(s.b, b.keypair, met.id, { amount: '1200' })).status).toBe(204);
  const end = await endIn(chosen, 1000);
  await endIn(met, 1000);
  await waitFor('reserve_not_met', async () => (await ofLot([N.ReserveNotMet], chosen.id)).length === 2, 20_000);
  const choice = await s.b.client.as(platform).post(`/v2/lots/${chosen.id}/winners`, { data: { type: 'participants', id: pa.id, attributes: { accept_below_reserve: true } } });
  expect(choice.status).toBe(200);
  await waitFor('the lapse time to pass', async () => Date.now() > end.getTime() + (LAPSE_AFTER + 2) * 1000, 20_000);
  const kept = await lotOf(s.a, chosen.id);
  expect({ state: kept.lotState, winner: kept.winnerId, lapsed: reserveLapsed(kept) }).toEqual({ state: LotState.Pending, winner: a.id, lapsed: false });
  expect(await ofLot([N.ReserveNotMet, N.LotLapsed], met.id)).toEqual([]);
  expect(await ofLot([N.LotLapsed], chosen.id)).toEqual([]);
}, 40_000);

it('races a winner choice on one instance against the lapse on the other: exactly one of them happens', async () => {
  const lots: Lot[] = [];
  for (let i = 0; i < 12; i++) lots.push(await createLot(s.a, platform, { ...RESERVED, deposit: '0' }));
  const seats: Participant[] = [];
  for (const lot of lots) {
    const p = await join(s.a, users[1].keypair, lot.id);
    expect((await bid(s.a, users[1].keypair, lot.id, { amount: '1200' })).status).toBe(204);
    seats.push(p);
  }
  // Ended long enough ago that the lapse is due; their own jobs wait for the end they were created with.
  const end = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
  await s.a.orm.em.fork().nativeUpdate(Lot, { id: { $in: lots.map((l) => l.id) } }, { endTime: end });
  // One race per lot, one side started up to 12 ms after the other (the choice first on half the lots), so that either may take the lock first.
  const outcomes = [];
  for (const [i, lot] of lots.entries()) {
    const lag = (i % 6) * 2;
    const [choice, lapse] = await Promise.all([
      delay(i < 6 ? lag : 0).then(() => s.a.client.as(platform).post(`/v2/lots/${lot.id}/winners`, { data: { type: 'participants', id: seats[i].id, attributes: { accept_below_reserve: true } } })),
      delay(i < 6 ? 0 : lag).then(() => s.b.app.services.reserve.lapse({ em: s.b.orm.em.fork() }, { lotId: lot.id, endTime: end.toISOString() })),
    ]);
    const row = await lotOf(s.a, lot.id);
    outcomes.push({ choice: choice.status === 200 ? 'won' : choice.body.errors[0].code, lapse, winner: row.winnerId !== null, lapsed: reserveLapsed(row), state: row.lotState });
  }
  for (const o of outcomes) {
    expect([
      { choice: 'won', lapse: 'kept', winner: true, lapsed: false, state: LotState.Pending },
      { choice: 'lot_closed', lapse: 'lapsed', winner: false, lapsed: true, state: LotState.Finished },
    ]).toContainEqual(o);
  }
}, 60_000);
