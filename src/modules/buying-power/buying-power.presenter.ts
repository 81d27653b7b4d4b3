import type { Resource } from '../../rest/document';
import { formattedBuyingPower } from './buying-power.mappers';
import type { BuyingPower } from './buying-power.service';

export function presentBuyingPower(power: BuyingPower): Resource {
  const p = formattedBuyingPower(power);
  return {
    type: 'buying_power',
    id: p.accountId,
    attributes: { platform_id: p.platformId, multiple: p.multiple, deposits: p.deposits, limit: p.limit, in_use: p.inUse, left: p.left, currency: p.currency },
  };
}
