// What other areas may use of currency: nothing outside this folder imports another file of it.
export { BASE_CURRENCY, isCurrency } from './currency.input';
export { refreshRates } from './currency.refresh';
export { type Converter, converterOf, type CurrencyService, shownPrice } from './currency.service';
export { RATES_QUERY, ratesOfRows } from './currency.sql';
