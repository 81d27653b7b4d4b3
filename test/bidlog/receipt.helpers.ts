import type { Keypair } from '@stellar/stellar-sdk';
import type { Receipt } from '../../src/modules/bidlog';
import type { TestApp } from '../helpers/app';
import { signHeaders } from '../helpers/client';

/** A signed bid through REST; answers its receipt from the Bid-Receipt header. */
export async function bidForReceipt(t: TestApp, who: Keypair, lotId: string, amount: string): Promise<Receipt> {
  const target = `/lots/${lotId}/bid_requests`;
  const body = { data: { type: 'bid_requests', attributes: { lot_id: Number(lotId), amount } } };
  const headers: Record<string, string> = { 'content-type': 'application/vnd.api+json' };
  signHeaders('POST', target, headers, Buffer.from(JSON.stringify(body)), { keypair: who });
  const res = await t.client.request('POST', target, { body, headers });
  expect(res.status).toBe(204);
  return JSON.parse(Buffer.from(res.headers['bid-receipt'] as string, 'base64').toString('utf8')) as Receipt;
}
