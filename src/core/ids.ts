const INTEGER_ID = /^\d{1,18}$/;

/** An account id: a Stellar public key (G and 55 base32 characters). */
export const ACCOUNT_ID = /^G[A-Z2-7]{55}$/;

/** An integer id as a path gives it (a string) or as a body gives it (a string or a JSON integer); null when it is neither. */
export function integerId(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return typeof value === 'string' && INTEGER_ID.test(value) ? value : null;
}
