import type { Resource } from '../../rest/document';
import { allToWire } from '../../rest/fields';
import type { CreateLotRequest } from './requests.entity';
import { requestView, type RequestPricing } from './requests.view';

/** The reviewable request resource: type create_lot_requests, in single responses and lists alike. */
export function presentRequest(request: CreateLotRequest, pricing?: RequestPricing): Resource {
  const { lotId, ...view } = requestView(request, pricing);
  const attributes = allToWire(view);
  return { type: 'create_lot_requests', id: request.id, attributes: { ...attributes, lot_id: lotId === null ? null : Number(lotId) } };
}
