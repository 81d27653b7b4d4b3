import type { RequestContext } from '../core/context';
import type { Services } from '../services';
import { createLoaders, type Loaders } from './loaders';

/** What every resolver receives: the request context for the services, the services, the request's loaders. */
export interface GraphQLContext {
  rc: RequestContext;
  services: Services;
  loaders: Loaders;
}

export function graphqlContext(rc: RequestContext, services: Services): GraphQLContext {
  return { rc, services, loaders: createLoaders(rc.em) };
}
