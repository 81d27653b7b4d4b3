import type { Api } from './api';
import { VEHICLES, type Vehicle } from './catalogue';
import { expectStatus, one } from './resources';

/**
 * The platform's auction rules (docs/auction-rules.md), set before its lots are created so that
 * every demo lot follows them: an increment table whose steps the demo's bids respect, soft close,
 * a buyer's fee schedule, and buying power of 25 × paid deposits (alice's about 2,750 EUR of
 * deposits hold about 68,800 EUR of bids, more than the demo's bids need). Answers the version.
 */
export async function setDemoRules(staff: Api, platformId: string): Promise<number> {
  const attributes = {
    increments: [{ up_to: '10000', min_step: '50' }, { up_to: '25000', min_step: '100' }, { up_to: null, min_step: '250' }],
    extend_window: 120,
    extend_by: 120,
    max_extension_seconds: 1200,
    buyer_fees: [{ up_to: '10000', fixed: '250' }, { up_to: null, fixed: '100', percent: '2' }],
    buying_power_multiple: '25',
  };
  const res = await staff.json('PATCH', `/platforms/${platformId}/rules`, { data: { type: 'platform_rules', id: platformId, attributes } });
  return one(expectStatus(res, 200, 'setting the platform rules')).attributes.version as number;
}

/**
 * The one demo lot with a reserve price: the first auction of the catalogue (the lot the demo bids
 * on most), with a reserve above the demo's bids, so that it shows `reserve_met: false` until
 * someone outbids enough, and its amount to the platform's staff only.
 */
export const DEMO_RESERVE = { vehicle: VEHICLES.find((v) => v.auction) as Vehicle, reservePrice: '11000' };

/** The reserve attribute of a demo lot's body: only the reserve lot has one. */
export const reserveOf = (vehicle: Vehicle): { reserve_price?: string } => (vehicle === DEMO_RESERVE.vehicle ? { reserve_price: DEMO_RESERVE.reservePrice } : {});
