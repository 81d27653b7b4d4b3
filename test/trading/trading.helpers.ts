import type { Keypair } from '@stellar/stellar-sdk';
import { Lot, LotType } from '../../src/modules/lots/lots.entity';
import { Deposit, Participant } from '../../src/modules/trading/trading.entity';
import type { TestApp } from '../helpers/app';
import type { TestResponse } from '../helpers/client';
import { createLot, ENG_LOT } from '../helpers/lots';

/** Shared by the trading tests: requests through the API, rows read straight from the database. */

export const FREE_LOT = { ...ENG_LOT, deposit: '0' };

export const participate = (t: TestApp, who: Keypair, lotId: string, attributes: Record<string, unknown> = {}): Promise<TestResponse> =>
  t.client.as(who).post(`/lots/${lotId}/participation_requests`, { data: { type: 'participation_requests', attributes: { lot_id: Number(lotId), buy_now: false, ...attributes } } });

export const chooseWinner = (t: TestApp, who: Keypair, lotId: string, participant: Participant, buyNow = false): Promise<TestResponse> =>
  t.client.as(who).post(`/v2/lots/${lotId}/winners`, { data: { type: 'participants', id: participant.id, attributes: { buy_now: buyNow, account_id: participant.accountId } } });

export const closeLot = (t: TestApp, who: Keypair, lotId: string, state: string): Promise<TestResponse> =>
  t.client.as(who).post('/lots/closed', { data: { type: 'lots', id: lotId, attributes: { state } } });

export const setDeposit = (t: TestApp, who: Keypair, depositId: string, state: string): Promise<TestResponse> =>
  t.client.as(who).patch(`/deposits/${depositId}`, { data: { type: 'deposits', id: depositId, attributes: { state } } });

export const putWinnerDetails = (t: TestApp, who: Keypair, lotId: string, attributes: Record<string, unknown>): Promise<TestResponse> =>
  t.client.as(who).put(`/lots/${lotId}/winner_details`, { data: { type: 'winner_details', id: lotId, attributes } });

/** Participates and fails loudly unless it answers 204. */
export async function join(t: TestApp, who: Keypair, lotId: string, attributes: Record<string, unknown> = {}): Promise<Participant> {
  const res = await participate(t, who, lotId, attributes);
  if (res.status !== 204) throw new Error(`participation failed: ${res.status} ${res.text}`);
  return participantOf(t, lotId, who.publicKey());
}

export async function participantOf(t: TestApp, lotId: string, accountId: string): Promise<Participant> {
  return t.orm.em.fork().findOneOrFail(Participant, { lotId, accountId });
}

export async function depositOf(t: TestApp, participant: Participant): Promise<Deposit> {
  return t.orm.em.fork().findOneOrFail(Deposit, { participantId: participant.id });
}

export async function lotRow(t: TestApp, lotId: string): Promise<Lot> {
  return t.orm.em.fork().findOneOrFail(Lot, { id: lotId });
}

/** Marks a deposit paid through the API (staff of the publisher) and fails loudly otherwise. */
export async function pay(t: TestApp, staff: Keypair, participant: Participant): Promise<Deposit> {
  const deposit = await depositOf(t, participant);
  const res = await setDeposit(t, staff, deposit.id, 'paid');
  if (res.status !== 200) throw new Error(`paying the deposit failed: ${res.status} ${res.text}`);
  return depositOf(t, participant);
}

/** A lot of an external source: made through the API, then marked as imported. */
export async function externalLot(t: TestApp, staff: Keypair): Promise<Lot> {
  const lot = await createLot(t, staff, FREE_LOT);
  await t.orm.em.fork().nativeUpdate(Lot, { id: lot.id }, { lotType: LotType.PartnerA });
  return lot;
}

/** Moves a lot's end into the past (the lot stays pending, as after its auction ended). */
export async function endLot(t: TestApp, lotId: string): Promise<void> {
  await t.orm.em.fork().nativeUpdate(Lot, { id: lotId }, { endTime: new Date(Date.now() - 1000) });
}

export const codeOf = (res: TestResponse) => res.body?.errors?.[0]?.code;
