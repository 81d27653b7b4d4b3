import type { AppRouter } from '../../rest/router';
import { presentCountry, presentEnum, presentFuel, presentMaker } from './reference.presenter';

export function referenceRoutes(router: AppRouter): void {
  const { reference } = router.services;
  router.get('/enums/makers', {}, () => ({ data: reference.makers().map(presentMaker) }));
  router.get('/enums/countries', {}, () => ({ data: reference.countries().map(presentCountry) }));
  router.get('/enums/fuels', {}, () => ({ data: reference.fuels().map(presentFuel) }));
  router.get('/enums/wheels', {}, () => ({ data: reference.wheels().map(presentEnum('wheel_positions')) }));
  router.get('/enums/transmissions', {}, () => ({
    data: reference.transmissions().map(presentEnum('transmission_types')),
  }));
}
