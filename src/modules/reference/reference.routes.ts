import type { AppRouter } from '../../rest/router';
import { presentCountry, presentEnum, presentFuel, presentMaker } from './reference.presenter';

export function referenceRoutes(router: AppRouter): void {
  const { reference } = router.services;
  router.get('/enums/makers', { summary: 'List the vehicle makers and their models', response: ['makers'] }, () => ({ data: reference.makers().map(presentMaker) }));
  router.get('/enums/countries', { summary: 'List the countries', response: ['countries'] }, () => ({ data: reference.countries().map(presentCountry) }));
  router.get('/enums/fuels', { summary: 'List the fuel types', response: ['fuel_types'] }, () => ({ data: reference.fuels().map(presentFuel) }));
  router.get('/enums/wheels', { summary: 'List the wheel positions', response: ['wheel_positions'] }, () => ({ data: reference.wheels().map(presentEnum('wheel_positions')) }));
  router.get('/enums/transmissions', { summary: 'List the transmission types', response: ['transmission_types'] }, () => ({
    data: reference.transmissions().map(presentEnum('transmission_types')),
  }));
}
