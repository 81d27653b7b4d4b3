import type { Keypair } from '@stellar/stellar-sdk';
import { LotState } from '../../src/modules/lots/lots.entity';
import { NotificationType as N } from '../../src/modules/notifications/notifications.entity';
import { SecondChanceOffer } from '../../src/modules/offers/offers.entity';
import { createAccount, createPlatform } from '../helpers/factories';
import { notificationsOf, startTwoInstances, waitFor, type TwoInstances } from '../jobs/jobs.helpers';
import { closeLot, codeOf, lotRow } from '../trading/trading.helpers';
import { logCommits } from '../concurrency/instances';
import { setRules } from '../rules/rules.helpers';
import { answer, canceledDeal, lapsedLot, offer, offered } from './offers.helpers';

// Two instances on one database, both working the job queue; the expiry job looks every second.
let s: TwoInstances;
let platform: Keypair;
let users: Keypair[];

beforeAll(async () => {
  s = await startTwoInstances({ SECOND_CHANCE_EXPIRY_SECONDS: '1' });
  platform = await createPlatform(s.a);
  users = [];
  for (let i = 0; i < 3; i++) users.push((await createAccount(s.a, platform)).keypair);
  // For the lapsed lots; the canceled deals' lots have no reserve, so it leaves them alone.
  await setRules(s.a, platform, { reserve_lapse_after: 2 });
  await logCommits((text) => s.a.orm.em.getConnection().execute(text));
}, 60_000);
afterAll(() => s?.close());

const answeredOf = async (lotId: string) => (await notificationsOf(s.a, [N.SecondChanceAnswered])).filter((n) => n.meta.lot_id === lotId);
const winnersOf = async (lotId: string, accountId: string) => (await notificationsOf(s.a, [N.Winner])).filter((n) => n.meta.lot_id === lotId && n.recipient === accountId);
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const offerRow = (id: string) => s.a.orm.em.fork().findOneOrFail(SecondChanceOffer, { id });

describe('second-chance offers under concurrency, on two instances', () => {
  it('of two offers on one lot at once, exactly one is made', async () => {
    for (let round = 0; round < 3; round++) {
      const { lot } = await canceledDeal(s.a, platform, users);
      const results = await Promise.all([offer(s.a, platform, lot.id), offer(s.b, platform, lot.id, { account_id: users[0].publicKey() })]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(codeOf(results.find((r) => r.status === 409)!)).toBe('second_chance_offer_open');
      expect(await s.a.orm.em.fork().count(SecondChanceOffer, { lotId: lot.id })).toBe(1);
    }
  }, 60_000);

  it('of an offer and a close sent together, the offer is made only if it committed before the close', async () => {
    const seen: string[] = [];
    for (let round = 0; round < 8; round++) {
      const { lot } = await canceledDeal(s.a, platform, users);
      // One side starts up to 12 ms after the other (the offer first in half the rounds), so that either may take the lot first.
      const lag = (round % 4) * 4;
      const [made, closed] = await Promise.all([
        delay(round < 4 ? 0 : lag).then(() => offer(s.a, platform, lot.id)),
        delay(round < 4 ? lag : 0).then(() => closeLot(s.b, platform, lot.id, 'finished')),
      ]);
      expect(closed.status).toBe(200);
      const commits = await s.a.orm.em
        .getConnection()
        .execute<{ kind: string; seq: string }[]>(
          `select c.kind, c.seq::text from test_commits c left join second_chance_offers o on c.kind = 'offer' and o.id = c.ref
            where (c.kind = 'lot' and c.ref = ? and c.lot_state = ?) or o.lot_id = ? order by c.seq`,
          [lot.id, LotState.Finished, lot.id],
        );
      // An offer made on a lot the close had already finished commits after it: the offer read the lot open without its lock.
      if (made.status === 201) expect(commits.map((c) => c.kind)).toEqual(['offer', 'lot']);
      else {
        expect({ status: made.status, code: codeOf(made) }).toEqual({ status: 400, code: 'second_chance_not_allowed' });
        expect(commits.map((c) => c.kind)).toEqual(['lot']);
      }
      seen.push(made.status === 201 ? 'offer first' : 'close first');
    }
    // Each race must really have been one: both orders happened.
    expect(new Set(seen).size).toBe(2);
  }, 60_000);

  it('of two answers at once (accept twice, accept and decline), exactly one counts', async () => {
    for (const second of ['accepted', 'declined']) {
      const { lot } = await canceledDeal(s.a, platform, users);
      const id = await offered(s.a, platform, lot.id);
      // Two attempts, each signed at its own millisecond: the same write signed twice in one
      // millisecond is one signature, and its second arrival a replay (401, docs/signing.md).
      const at = Date.now();
      const results = await Promise.all([
        answer(s.a, users[1], lot.id, id, 'accepted', new Date(at)),
        answer(s.b, users[1], lot.id, id, second, new Date(at + 1)),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(codeOf(results.find((r) => r.status === 409)!)).toBe('second_chance_offer_closed');
      const state = results.find((r) => r.status === 200)!.body.data.attributes.state;
      expect((await offerRow(id)).state).toBe(state);
      expect(await answeredOf(lot.id)).toHaveLength(1);
      expect((await lotRow(s.a, lot.id)).winnerId).toBe(state === 'accepted' ? users[1].publicKey() : users[2].publicKey());
      expect(await winnersOf(lot.id, users[1].publicKey())).toHaveLength(state === 'accepted' ? 1 : 0);
    }
  }, 60_000);

  // The offer goes to the highest bidder left: users[1] after users[2]'s canceled deal, users[2] on a lapsed lot.
  const RACED = [
    { name: "a canceled deal's lot", lotOf: async () => (await canceledDeal(s.a, platform, users)).lot.id, bidder: 1, kept: () => ({ lotState: LotState.Pending, winnerId: users[2].publicKey() }) },
    { name: 'a lapsed lot', lotOf: async () => (await lapsedLot(s.a, platform, users)).id, bidder: 2, kept: () => ({ lotState: LotState.Finished, winnerId: null }) },
  ];

  it.each(RACED)('of an acceptance and the expiry at the same moment on $name, exactly one happens', async ({ lotOf, bidder, kept }) => {
    for (let round = 0; round < 6; round++) {
      const lotId = await lotOf();
      const id = await offered(s.a, platform, lotId);
      // The offer expires around the moment the acceptance and an expiry run start (from 40 ms before to 160 ms after), so either may come first.
      const at = Date.now() + 150;
      await s.a.orm.em.fork().nativeUpdate(SecondChanceOffer, { id }, { expiresAt: new Date(at + round * 40 - 40) });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
      const [accepted, expired] = await Promise.all([answer(s.a, users[bidder], lotId, id, 'accepted'), s.b.app.services.secondChance.expireDue(s.b.orm.em.fork())]);
      const row = await offerRow(id);
      const lot = await lotRow(s.a, lotId);
      if (row.state === 'accepted') {
        expect(accepted.status).toBe(200);
        expect(expired).toBe(0);
        expect({ lotState: lot.lotState, winnerId: lot.winnerId }).toEqual({ lotState: LotState.Pending, winnerId: users[bidder].publicKey() });
      } else {
        expect(row.state).toBe('expired');
        expect(accepted.status).toBe(409);
        expect(['second_chance_offer_expired', 'second_chance_offer_closed']).toContain(codeOf(accepted));
        expect({ lotState: lot.lotState, winnerId: lot.winnerId }).toEqual(kept());
      }
      expect(await answeredOf(lotId)).toEqual([expect.objectContaining({ recipient: platform.publicKey(), meta: expect.objectContaining({ state: row.state }) })]);
    }
  }, 60_000);

  it('expires an open offer through the job once its time is up, once across the instances', async () => {
    const { lot } = await canceledDeal(s.a, platform, users);
    const id = await offered(s.a, platform, lot.id, { expires_in: 1 });
    expect((await offerRow(id)).state).toBe('open');
    await waitFor('the offer to expire', async () => (await offerRow(id)).state === 'expired', 20_000);
    // Give the other instance's run a chance to expire it twice.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await answeredOf(lot.id)).toEqual([{ recipient: platform.publicKey(), type: N.SecondChanceAnswered, meta: { lot_id: lot.id, offer_id: id, account_id: users[1].publicKey(), state: 'expired' } }]);
    expect(codeOf(await answer(s.b, users[1], lot.id, id, 'accepted'))).toBe('second_chance_offer_closed');
    expect((await offer(s.b, platform, lot.id)).body.data.attributes.account_id).toBe(users[0].publicKey());
  }, 40_000);
});
