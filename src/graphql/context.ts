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

/**
 * The context one event of a subscription executes with. A subscription's context outlives many
 * events: each reads through a fresh entity manager and fresh loaders, as a request would, so
 * that nested fields are not stale, and no resolver has to reset the shared one.
 */
export function eventContext(subscription: GraphQLContext): GraphQLContext {
  return graphqlContext({ ...subscription.rc, em: subscription.rc.em.fork() }, subscription.services);
}
