import type { EntityManager } from '@mikro-orm/postgresql';
import type { ListedLot, Lot } from './lots.entity';

/** The steps a lot shows (`min_step`, `max_step`). */
export type ShownSteps = Pick<Lot, 'minStep' | 'maxStep'>;

/** The fields of a new lot that its platform's rules look at and may set. */
export type NewLotFields = Pick<Lot, 'lotType' | 'organizerId' | 'publisherId' | 'startPrice' | 'minStep' | 'maxStep' | 'deposit' | 'duration'> & Partial<Pick<Lot, 'rulesVersion'>>;

/**
 * A lot's terms under its platform's auction rules. The rules are an area above lots (they read
 * lots to count a seller's open ones), so lots asks through this port, which the rules service fills.
 */
export interface LotTerms {
  /** A new lot under its publisher's current rules: checked, with the deposit and the version they set. */
  applyToNewLot<F extends NewLotFields>(em: EntityManager, fields: F): Promise<F>;
  /** The steps of the band of the lot's increment table that its next raise is held to; null without a table (it shows its own). */
  shownStepsOf(em: EntityManager, lot: ListedLot): Promise<ShownSteps | null>;
}
