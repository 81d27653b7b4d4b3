import type { Resource } from '../../rest/document';
import type { CreateLotRequest } from './requests.entity';
import { requestFields, type RequestPricing } from './requests.view';

/** The reviewable request resource (PROTOCOL.md §9): type create_lot_requests, in single responses and lists alike. */
export function presentRequest(request: CreateLotRequest, pricing?: RequestPricing): Resource {
  return { type: 'create_lot_requests', id: request.id, attributes: requestFields(request, pricing) };
}
