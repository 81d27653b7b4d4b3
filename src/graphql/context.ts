import type { RequestContext } from '../core/context';
import type { Services } from '../services';

/** What every resolver receives: the request context for the services, and the services. */
export interface GraphQLContext {
  rc: RequestContext;
  services: Services;
}
