// What other areas may use of idempotency: nothing outside this folder imports another file of it.
export { asStored, IDEMPOTENCY_TTL_SECONDS, type IdempotencyService, type KeyedCall, type ResultCodec, withDates } from './idempotency.service';
