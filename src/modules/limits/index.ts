// What other areas may use of limits: nothing outside this folder imports another file of it.
export { addressGroup } from './address-group';
export type { RateLimiter } from './rate-limit';
