import type { Keypair } from '@stellar/stellar-sdk';
import { verifyBidLog, type ServedLog, type ServedLot, type Verification, type VerifyOptions } from '../modules/bidlog';
import { Api } from './api';
import { Refused } from './resources';

/**
 * Fetches a lot and its bid log from the service at `base` and verifies the log against the lot
 * (`verifyBidLog`). Signed as `keypair` when given, so a bidder sees its own entries opened.
 */
export async function fetchAndVerifyBidLog(base: string, lotId: string, options: VerifyOptions = {}, keypair: Keypair | null = null): Promise<Verification> {
  const api = new Api(base, keypair);
  const [log, lot] = await Promise.all([api.json('GET', `/lots/${encodeURIComponent(lotId)}/bid_log`), api.json('GET', `/lots/${encodeURIComponent(lotId)}`)]);
  for (const res of [log, lot]) if (res.status !== 200) throw new Refused(`${res.status} ${res.statusText}: ${JSON.stringify(res.body)}`);
  const logData = (log.body as { data: { attributes: ServedLog } }).data.attributes;
  const lotData = (lot.body as { data: { id: string; attributes: Omit<ServedLot, 'id'> } }).data;
  return verifyBidLog(logData, { id: lotData.id, ...lotData.attributes }, options);
}
