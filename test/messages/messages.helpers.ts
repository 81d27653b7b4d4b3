import type { Keypair } from '@stellar/stellar-sdk';
import type { TestApp } from '../helpers/app';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE } from '../helpers/lots';
import type { Lot } from '../../src/modules/lots/lots.entity';

/**
 * The cast of the message tests: platform P with an admin who organizes a direct sale, buyers of
 * P, a stranger of P, and platform Q with its own admin.
 */
export interface World {
  platform: Keypair;
  admin: CreatedAccount;
  buyer: CreatedAccount;
  buyer2: CreatedAccount;
  stranger: CreatedAccount;
  otherPlatform: Keypair;
  otherAdmin: CreatedAccount;
  lot: Lot;
}

export async function makeWorld(t: TestApp): Promise<World> {
  const platform = await createPlatform(t);
  const otherPlatform = await createPlatform(t);
  const admin = await createAccount(t, platform, { type: 'admin' });
  return {
    platform,
    admin,
    buyer: await createAccount(t, platform),
    buyer2: await createAccount(t, platform),
    stranger: await createAccount(t, platform),
    otherPlatform,
    otherAdmin: await createAccount(t, otherPlatform, { type: 'admin' }),
    lot: await createLot(t, admin.keypair, DIRECT_SALE),
  };
}

export const messageDoc = (attributes: Record<string, unknown>) => ({ data: { type: 'messages', attributes } });

/** POST /messages signed by `who`. */
export const send = (t: TestApp, who: Keypair, attributes: Record<string, unknown>) => t.client.as(who).post('/messages', messageDoc(attributes));

/** Sends and insists on 204. */
export async function sent(t: TestApp, who: Keypair, sender: string, receiver: string, lotId: string, text: string): Promise<void> {
  const res = await send(t, who, { sender, receiver, lot_id: Number(lotId), text });
  if (res.status !== 204) throw new Error(`sending failed: ${res.status} ${res.text}`);
}

/** GET /messages/unread's count, signed by `who`. */
export async function unreadCount(t: TestApp, who: Keypair, query = ''): Promise<number> {
  const res = await t.client.as(who).get(`/messages/unread${query}`);
  if (res.status !== 200) throw new Error(`unread failed: ${res.status} ${res.text}`);
  return res.body.data.attributes.count;
}
