import type { Keypair } from '@stellar/stellar-sdk';
import { Money } from '../../src/core/money';
import { Lot } from '../../src/modules/lots/lots.entity';
import { Deposit, DepositState, Participant, ParticipantState, WinnerDetails } from '../../src/modules/trading/trading.entity';
import { Star } from '../../src/modules/watchlist/watchlist.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot } from '../helpers/lots';

let t: TestApp;
let platform: Keypair;
let otherPlatform: Keypair;
let winner: CreatedAccount;
let loser: CreatedAccount;
let lotId: string;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  otherPlatform = await createPlatform(t);
  winner = await createAccount(t, platform);
  loser = await createAccount(t, platform);
  lotId = (await createLot(t, platform)).id;
  const em = t.orm.em.fork();
  const pw = em.create(Participant, { lotId, accountId: winner.id, state: ParticipantState.Winner });
  const pl = em.create(Participant, { lotId, accountId: loser.id, state: ParticipantState.Lost });
  await em.flush();
  em.create(Deposit, { participantId: pw.id, lotId, accountId: winner.id, amount: new Money(100), currency: 'USD', state: DepositState.Paid });
  em.create(Deposit, { participantId: pl.id, lotId, accountId: loser.id, amount: new Money(100), currency: 'USD', state: DepositState.Returned });
  em.create(WinnerDetails, { lotId, invoiceId: 'invoice.pdf', feeAmount: new Money('12.5') });
  em.create(Star, { lotId, accountId: loser.id });
  await em.nativeUpdate(Lot, { id: lotId }, { winnerId: winner.id });
  await em.flush();
});
afterAll(() => t.close());

const ALL = 'participants,callbacks,platform,deposits,winner_details,organizer,stars';

async function included(as: Keypair | null) {
  const client = as ? t.client.as(as) : t.client;
  const res = await client.get(`/lots/${lotId}?include=${ALL}`);
  expect(res.status).toBe(200);
  const byType = (type: string) => res.body.included.filter((r: any) => r.type === type);
  return { res, byType };
}

describe('GET /lots/{id} includes', () => {
  it('shows everything to the organizer', async () => {
    const { res, byType } = await included(platform);
    expect(byType('participants').map((p: any) => p.attributes.state_str)).toEqual(['winner', 'lost']);
    expect(byType('participants')[0].attributes).toMatchObject({ account_id: winner.id, lot_id: Number(lotId), current_bid: null, max_bid: null, requested_buy_now: false });
    expect(byType('deposits').map((d: any) => d.attributes.state_str)).toEqual(['paid', 'returned']);
    expect(byType('deposits')[0].attributes).toMatchObject({ amount: '100.00', currency: 'USD' });
    expect(byType('winner_details')).toEqual([
      { type: 'winner_details', id: lotId, attributes: expect.objectContaining({ invoice_id: 'invoice.pdf', fee_amount: 12.5 }) },
    ]);
    expect(byType('stars')).toHaveLength(1);
    expect(res.body.data.relationships.organizer).toEqual({ data: { type: 'accounts', id: platform.publicKey() } });
    expect(res.body.data.relationships.platform).toEqual({ data: { type: 'accounts', id: platform.publicKey() } });
    expect(res.body.data.relationships.participants.data).toHaveLength(2);
  });

  it('shows a participant only its own rows, and winner details only to the winner', async () => {
    const asWinner = await included(winner.keypair);
    expect(asWinner.byType('participants').map((p: any) => p.attributes.account_id)).toEqual([winner.id]);
    expect(asWinner.byType('deposits').map((d: any) => d.attributes.account_id)).toEqual([winner.id]);
    expect(asWinner.byType('winner_details')).toHaveLength(1);
    expect(asWinner.byType('stars')).toHaveLength(0);
    const asLoser = await included(loser.keypair);
    expect(asLoser.byType('participants').map((p: any) => p.attributes.account_id)).toEqual([loser.id]);
    expect(asLoser.byType('winner_details')).toHaveLength(0);
    expect(asLoser.res.body.data.relationships.winner_details).toEqual({ data: null });
    expect(asLoser.byType('stars')).toHaveLength(1);
  });

  it('shows anonymous callers and other platforms no private rows', async () => {
    for (const caller of [null, otherPlatform]) {
      const { byType } = await included(caller);
      expect(byType('participants')).toEqual([]);
      expect(byType('deposits')).toEqual([]);
      expect(byType('winner_details')).toEqual([]);
      expect(byType('stars')).toEqual([]);
      const organizer = byType('accounts').find((a: any) => a.id === platform.publicKey());
      expect(organizer.attributes.email).toBeUndefined();
    }
  });

  it('loads includes for a whole page in GET /lots', async () => {
    const res = await t.client.as(platform).get(`/lots?include=${ALL}`);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.included.filter((r: any) => r.type === 'participants')).toHaveLength(2);
  });
});
