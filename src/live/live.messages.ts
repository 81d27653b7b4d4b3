import type { AccountStoppedEvent, BidPlacedEvent, LotChangedEvent, NotificationEvent } from './live.topics';

/**
 * The events of each channel as they arrive, checked before any listener sees them. Through
 * Redis they come from whoever can publish there (another instance, an older version, anyone with
 * Redis's password): a bid whose id is no integer ended a resuming `bidPlaced` stream, a message
 * naming another lot made `lotUpdated` push that lot, a `meta` nested 5,000 deep ended
 * `notificationAdded` (the outside tester's probes). A message that is not what its channel
 * carries is refused (`NotAnEvent`) and dropped by the bus.
 */
export class NotAnEvent extends Error {}

type Raw = Record<string, unknown>;

const DIGITS = /^[0-9]{1,19}$/;
const AMOUNT = /^[0-9]+(\.[0-9]{1,2})?$/;
const MAX_ID = 128;

function record(raw: unknown): Raw {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new NotAnEvent('not a JSON object');
  return raw as Raw;
}

function text(r: Raw, field: string, pattern?: RegExp, longest = MAX_ID): string {
  const value = r[field];
  if (typeof value !== 'string' || value.length > longest || (pattern && !pattern.test(value))) throw new NotAnEvent(`${field} is no valid value`);
  return value;
}

/** A decimal of any size: its column bounds it, not the message. */
const amount = (r: Raw, field: string) => text(r, field, AMOUNT, Infinity);

/** A date as it travels: a string through Redis, the Date itself in one process. */
function date(r: Raw, field: string): Date {
  const value = r[field];
  const at = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) throw new NotAnEvent(`${field} is no date`);
  return at;
}

/** A bid of lot `lotId`, or of a lot that platform `platformId` publishes. */
export const bidOf =
  (expected: { lotId: string } | { platformId: string }) =>
  (raw: unknown): BidPlacedEvent => {
    const r = record(raw);
    const lotId = text(r, 'lotId', DIGITS);
    const publisherId = r.publisherId === undefined ? undefined : text(r, 'publisherId');
    if ('lotId' in expected ? lotId !== expected.lotId : publisherId !== expected.platformId) throw new NotAnEvent('a bid of another channel');
    if (typeof r.placedByProxy !== 'boolean') throw new NotAnEvent('placedByProxy is no boolean');
    return {
      id: text(r, 'id', DIGITS),
      lotId,
      amount: amount(r, 'amount'),
      highestBid: amount(r, 'highestBid'),
      bidderId: text(r, 'bidderId'),
      placedByProxy: r.placedByProxy,
      createdAt: date(r, 'createdAt'),
      ...(r.endTime === undefined ? {} : { endTime: date(r, 'endTime') }),
      ...(publisherId === undefined ? {} : { publisherId }),
    };
  };

/** A change of lot `lotId`. */
export const lotChangeOf =
  (lotId: string) =>
  (raw: unknown): LotChangedEvent => {
    if (record(raw).lotId !== lotId) throw new NotAnEvent('a change of another lot');
    return { lotId };
  };

/** A notification for account `accountId`, its meta flat. */
export const notificationOf =
  (accountId: string) =>
  (raw: unknown): NotificationEvent => {
    const r = record(raw);
    if (r.recipient !== accountId) throw new NotAnEvent('a notification for another account');
    if (!Number.isSafeInteger(r.type)) throw new NotAnEvent('type is no integer');
    const meta = record(r.meta ?? {});
    if (Object.values(meta).some((v) => v !== null && typeof v === 'object')) throw new NotAnEvent('meta is not flat');
    return { id: text(r, 'id', DIGITS), recipient: accountId, type: r.type as number, typeStr: text(r, 'typeStr'), meta: meta as Record<string, string>, createdAt: date(r, 'createdAt') };
  };

export function stoppedOf(raw: unknown): AccountStoppedEvent {
  return { accountId: text(record(raw), 'accountId') };
}
