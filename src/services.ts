import type { AppModule, Infrastructure, ServiceFactories } from './app-modules';
import { LiveBus } from './live/live.bus';
import { createTransport } from './live/live.transport';
import { LotClock } from './modules/lots';

/**
 * Every domain service, built once per process and shared by both edges. Each area adds its own
 * services to this interface from its `<area>.module.ts` (declaration merging), beside the two
 * that belong to no area: live delivery and the lot clock.
 */
export interface Services {
  live: LiveBus;
  lotClock: LotClock;
}

/**
 * Builds the services of every area: each on first use by another, so that the areas may be
 * listed in any order, then all of them, so that a wiring fault shows at start, not at a request.
 */
export function createServices(modules: readonly AppModule[], infra: Infrastructure): Services {
  const { config, log } = infra;
  const factories: ServiceFactories = {
    live: () => new LiveBus(createTransport(config, log)),
    lotClock: () => new LotClock({ finishingNoticeSeconds: config.FINISHING_NOTICE_SECONDS, unpaidInvoiceReminderSeconds: config.UNPAID_INVOICE_REMINDER_SECONDS }),
  };
  for (const module of modules) {
    for (const key of Object.keys(module.services ?? {}) as (keyof Services)[]) {
      if (factories[key]) throw new Error(`two areas build the service ${key} (the second is ${module.name})`);
      Object.assign(factories, { [key]: module.services?.[key] });
    }
  }
  const built = new Map<keyof Services, unknown>();
  const building = new Set<keyof Services>();
  const services = {} as Services;
  for (const key of Object.keys(factories) as (keyof Services)[]) {
    Object.defineProperty(services, key, {
      enumerable: true,
      get() {
        if (!built.has(key)) {
          if (building.has(key)) throw new Error(`the service ${key} needs itself to be built (${[...building].join(' → ')} → ${key})`);
          building.add(key);
          built.set(key, (factories[key] as (s: Services, i: Infrastructure) => unknown)(services, infra));
          building.delete(key);
        }
        return built.get(key);
      },
    });
  }
  for (const key of Object.keys(factories) as (keyof Services)[]) void services[key];
  return services;
}
