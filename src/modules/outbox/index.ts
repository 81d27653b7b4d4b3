// What other areas may use of outbox: nothing outside this folder imports another file of it.
export type { Outbox } from './outbox.port';
