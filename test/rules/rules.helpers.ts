import type { Keypair } from '@stellar/stellar-sdk';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import type { TestApp } from '../helpers/app';
import type { TestResponse } from '../helpers/client';

/** PATCH /platforms/{id}/rules with these attributes, signed by `who`. */
export const patchRules = (t: TestApp, who: Keypair, platformId: string, attributes: Record<string, unknown>): Promise<TestResponse> =>
  t.client.as(who).patch(`/platforms/${platformId}/rules`, { data: { type: 'platform_rules', id: platformId, attributes } });

/** Sets rules and fails loudly unless it answers 200. */
export async function setRules(t: TestApp, staff: Keypair, attributes: Record<string, unknown>): Promise<number> {
  const res = await patchRules(t, staff, staff.publicKey(), attributes);
  if (res.status !== 200) throw new Error(`setting rules failed: ${res.status} ${res.text}`);
  return res.body.data.attributes.version;
}

/** Participants of a lot, pending (deposit settled), one per account. */
export async function seat(t: TestApp, lotId: string, accountIds: string[]): Promise<void> {
  const em = t.orm.em.fork();
  accountIds.forEach((accountId) => em.create(Participant, { lotId, accountId, state: ParticipantState.Pending }));
  await em.flush();
}

export const bid = (t: TestApp, who: Keypair, lotId: string, attributes: Record<string, unknown>): Promise<TestResponse> =>
  t.client.as(who).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { lot_id: Number(lotId), ...attributes } } });
