import { formatMoney } from '../../core/money';
import { rfc3339 } from '../../core/time';
import type { Resource } from '../../rest/document';
import type { SecondChanceOffer } from './offers.entity';

export function presentOffer(o: SecondChanceOffer): Resource {
  return {
    type: 'second_chance_offers',
    id: o.id,
    attributes: {
      lot_id: Number(o.lotId),
      participant_id: Number(o.participantId),
      account_id: o.accountId,
      amount: formatMoney(o.amount),
      currency: o.currency,
      state: o.state,
      expires_at: rfc3339(o.expiresAt),
      offered_by: o.offeredBy,
      answered_at: o.answeredAt && rfc3339(o.answeredAt),
      created_at: rfc3339(o.createdAt),
    },
  };
}
