import { formatMoney } from '../../core/money';
import { rfc3339 } from '../../core/time';
import type { Resource } from '../../rest/document';
import { wireName, type WiredDeep } from '../../rest/fields';
import type { AuctionRules } from './rules.model';
import type { FeeEstimate, RulesVersion } from './rules.service';

/** A rules document with its keys in the wire's snake_case, at every depth. */
function toWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toWire);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [wireName(k), toWire(v)]));
}

export function presentRules(r: RulesVersion): Resource {
  return {
    type: 'platform_rules',
    id: r.platformId,
    attributes: { version: r.version, ...(toWire(r.rules) as WiredDeep<AuctionRules>), created_at: r.createdAt && rfc3339(r.createdAt) },
  };
}

export function presentFeeEstimate(e: FeeEstimate): Resource {
  return {
    type: 'fee_estimates',
    id: e.lot.id,
    attributes: {
      amount: formatMoney(e.amount),
      buyer_fee: formatMoney(e.buyerFee),
      total: formatMoney(e.total),
      currency: e.lot.currency,
      rules_version: e.lot.rulesVersion,
    },
  };
}
