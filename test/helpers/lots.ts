import type { Keypair } from '@stellar/stellar-sdk';
import { Lot } from '../../src/modules/lots/lots.entity';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import type { TestApp } from './app';

export const ENG_LOT = {
  type: 'eng',
  currency: 'USD',
  start_price: '1000',
  buy_now_price: '5000.00',
  deposit: '100',
  min_step: '50',
  max_step: '500',
  duration: 86400,
  details: { country: 'GEO', year: 2018, maker: 'Toyota', model: 'Camry', vin_code: '4T1BF1FK5CU123456', fuel_type: 'gas', wheel: 'left', transmission: 'AUTOMATIC' },
};

export const DIRECT_SALE = {
  type: 'no_auction',
  currency: 'EUR',
  start_price: '0',
  buy_now_price: '12000',
  deposit: '0',
  min_step: '0',
  max_step: '0',
  details: { country: 'DEU', year: 2020, maker: 'BMW', model: '3 Series', fuel_type: 'diesel' },
};

/** Creates a lot through POST /lots signed by platform staff and returns the created row. */
export async function createLot(t: TestApp, staff: Keypair, attributes: Record<string, unknown> = ENG_LOT): Promise<Lot> {
  const before = await t.orm.em.fork().count(Lot, { organizerId: staff.publicKey() });
  const res = await t.client.as(staff).post('/lots', { data: { type: 'lots', attributes } });
  if (res.status !== 204) throw new Error(`lot creation failed: ${res.status} ${res.text}`);
  const [lot] = await t.orm.em.fork().find(Lot, { organizerId: staff.publicKey() }, { orderBy: { id: 'desc' }, limit: 1 });
  if (!lot || (await t.orm.em.fork().count(Lot, { organizerId: staff.publicKey() })) !== before + 1) throw new Error('no lot was created');
  return lot;
}

/** `count` bids of `accountId` on the lot, 1001 upwards, written straight into the table: a hot lot's history, without its rounds. */
export async function seedBids(t: TestApp, lotId: string, accountId: string, count: number): Promise<void> {
  const em = t.orm.em.fork();
  const participant = em.create(Participant, { lotId, accountId, state: ParticipantState.Pending });
  await em.flush();
  await em.getConnection().execute(`insert into bids (lot_id, participant_id, account_id, amount) select ?, ?, ?, 1000 + g from generate_series(1, ${count}) g`, [lotId, participant.id, accountId]);
}
