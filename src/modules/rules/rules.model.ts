/**
 * A platform's auction rules as stored (one JSON document per version). Amounts are two-decimal
 * strings read in the currency of the lot they apply to; a null rule is off, and with every rule
 * off a lot follows the contract alone.
 */
export interface AuctionRules {
  /** Minimum (and optionally maximum) step by band of the highest bid; replaces the lot's min_step/max_step. */
  increments: IncrementBand[] | null;
  /** Seconds. */
  minDuration: number | null;
  maxDuration: number | null;
  /** Lots one organizer may have open (pending and not ended) on the platform at once. */
  maxLotsPerSeller: number | null;
  deposit: DepositRule | null;
  /** The buyer's fee by band of the price paid. */
  buyerFees: FeeBand[] | null;
  /** Soft close (seconds): a bid accepted in the last extendWindow of an eng lot moves its end to at least the bid time plus extendBy. */
  extendWindow: number | null;
  extendBy: number | null;
  /** Seconds soft close may add to one lot's end in all, past the end it was created with; null: no limit. */
  maxExtensionSeconds: number | null;
  /** Seconds after the end of a lot whose reserve was not met until it lapses (finished) when nobody chose a winner; null: never. */
  reserveLapseAfter: number | null;
  /** Seconds a second-chance offer stays open at most; null: SECOND_CHANCE_DEFAULT_TTL. */
  secondChanceTtl: number | null;
  /** Buying power: a participant's leading and unpaid won bids on the platform, in EUR, stay within this multiple of its paid deposits. */
  buyingPowerMultiple: string | null;
}

/** A price band: it holds prices up to `upTo` inclusive; the last band may be open (`upTo` null). */
export interface Band {
  upTo: string | null;
}

export interface IncrementBand extends Band {
  minStep: string;
  /** Null leaves the lot's own max_step in force in this band. */
  maxStep: string | null;
}

export interface FeeBand extends Band {
  /** A fixed amount plus a percentage of the price. */
  fixed: string;
  percent: string;
}

export type DepositRule = { fixed: string } | { percent: string; floor: string };

export const NO_RULES: AuctionRules = {
  increments: null,
  minDuration: null,
  maxDuration: null,
  maxLotsPerSeller: null,
  deposit: null,
  buyerFees: null,
  extendWindow: null,
  extendBy: null,
  maxExtensionSeconds: null,
  reserveLapseAfter: null,
  secondChanceTtl: null,
  buyingPowerMultiple: null,
};

/** How long a second-chance offer stays open at most when the lot's rules do not say (48 hours). */
export const SECOND_CHANCE_DEFAULT_TTL = 48 * 3600;

export const RULE_NAMES = Object.keys(NO_RULES) as (keyof AuctionRules)[];

/** A document as stored: versions written before the time cap hold `maxExtensions`, a count of moves. */
export type StoredRules = Partial<AuctionRules> & { maxExtensions?: number | null };

/**
 * A stored document read with the rules added since it was written as off. A count of moves
 * (`maxExtensions`) is read as the most time those moves could add, each at most `extendBy`, so
 * that a platform's lots never get more time than its old rule allowed.
 */
export function rulesOf(stored: StoredRules): AuctionRules {
  const { maxExtensions, ...rules } = stored;
  const counted = maxExtensions != null && rules.maxExtensionSeconds === undefined && rules.extendBy != null;
  return { ...NO_RULES, ...rules, ...(counted ? { maxExtensionSeconds: maxExtensions * (rules.extendBy as number) } : {}) };
}
