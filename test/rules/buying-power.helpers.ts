import type { Keypair } from '@stellar/stellar-sdk';
import type { TestApp } from '../helpers/app';
import type { TestResponse } from '../helpers/client';
import { createLot, ENG_LOT } from '../helpers/lots';
import { join, pay } from '../trading/trading.helpers';

/** An eng lot in EUR (deposit 100, start price 1000, steps 50 to 500) unless `attributes` say otherwise. */
export const EUR_LOT = { ...ENG_LOT, currency: 'EUR' };

/** A lot of the platform on which each of `bidders` participates with its deposit paid. */
export async function lotWithPaidBidders(t: TestApp, platform: Keypair, bidders: Keypair[], attributes: Record<string, unknown> = EUR_LOT): Promise<string> {
  const lot = await createLot(t, platform, attributes);
  for (const who of bidders) await pay(t, platform, await join(t, who, lot.id));
  return lot.id;
}

export const buyingPower = (t: TestApp, who: Keypair | null, accountId: string, query = ''): Promise<TestResponse> =>
  (who ? t.client.as(who) : t.client).get(`/accounts/${accountId}/buying_power${query}`);
