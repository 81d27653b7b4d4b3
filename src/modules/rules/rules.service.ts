import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { conflict, forbidden, invalid } from '../../core/errors';
import type { Money } from '../../core/money';
import { isStaffOf, requireCaller } from '../../core/policies';
import { inTransaction } from '../../core/transaction';
import { uniquely } from '../../core/unique';
import { validateInput, type Untrusted } from '../../core/validate';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { Lot, LotType, findLot, openWhere, type ListedLot, type LotTerms, type NewLotFields } from '../lots';
import { buyerFee, depositFor } from './fees';
import { shownSteps, unbiddableBand, type Steps } from './increments';
import { PlatformRules } from './rules.entity';
import { changedRules, feeEstimateInput, updateRulesInput, type FeeEstimateInput, type UpdateRulesInput } from './rules.input';
import { NO_RULES, rulesOf, type AuctionRules } from './rules.model';

/** A platform's rules as they stand: version 0 is "never configured". */
export interface RulesVersion {
  platformId: string;
  version: number;
  rules: AuctionRules;
  createdAt: Date | null;
}

export interface FeeEstimate {
  lot: Lot;
  amount: Money;
  buyerFee: Money;
  total: Money;
}

/**
 * Auction rules that platforms configure (docs/auction-rules.md). Each change is a new version;
 * a lot keeps the version it was created with. Versions never change once written, so they are
 * cached in the process without any invalidation across instances.
 */
export class RulesService implements LotTerms {
  private readonly versions = new Map<string, AuctionRules>();

  /** GET /platforms/{id}/rules: staff of the platform. */
  async get(ctx: RequestContext, input: Untrusted<{ platformId: string }>): Promise<RulesVersion> {
    const platformId = String(input.platformId ?? '');
    requireStaff(ctx, platformId);
    return this.current(ctx.em, platformId);
  }

  /** PATCH /platforms/{id}/rules: a new version; lots created from now on follow it. */
  async update(ctx: RequestContext, input: Untrusted<UpdateRulesInput>): Promise<RulesVersion> {
    const caller = requireStaff(ctx, String(input.platformId ?? ''));
    const { platformId, ...changes } = validateInput(updateRulesInput, input);
    const raced = () => conflict('rules_changed', 'the rules changed meanwhile; read them and try again');
    return uniquely(() => inTransaction(ctx, async (em) => {
      const current = await this.current(em, platformId);
      const rules = changedRules(current.rules, changes);
      if (rules.minDuration !== null && rules.maxDuration !== null && rules.maxDuration < rules.minDuration) {
        throw invalid('invalid_field', `maxDuration must not be less than minDuration (${rules.minDuration})`, { field: changes.maxDuration === undefined ? 'minDuration' : 'maxDuration', mentions: ['maxDuration', 'minDuration'] });
      }
      if ((rules.extendWindow === null) !== (rules.extendBy === null)) {
        throw invalid('invalid_field', 'extendWindow and extendBy are set (or cleared) together', { field: rules.extendWindow === null ? 'extendWindow' : 'extendBy', mentions: ['extendWindow', 'extendBy'] });
      }
      const row = em.create(PlatformRules, { platformId, version: current.version + 1, rules, createdBy: caller.accountId });
      await em.flush();
      return { platformId, version: row.version, rules, createdAt: row.createdAt };
    }), raced);
  }

  /**
   * A new lot under its publisher's current rules: its duration, its steps against the increment
   * table and its organizer's open lots are checked, the deposit rule sets its deposit, and it
   * records the version. Unchanged when the platform never set rules.
   */
  async applyToNewLot<F extends NewLotFields>(em: EntityManager, fields: F): Promise<F> {
    const { version, rules } = await this.current(em, fields.publisherId);
    if (version === 0) return fields;
    if ((rules.minDuration !== null && fields.duration < rules.minDuration) || (rules.maxDuration !== null && fields.duration > rules.maxDuration)) {
      throw invalid('duration_out_of_range', `duration must be from ${rules.minDuration ?? 1} to ${rules.maxDuration ?? 'any number of'} seconds on this platform`, { field: 'duration' });
    }
    const band = fields.lotType === LotType.Eng && rules.increments ? unbiddableBand(rules.increments, fields) : null;
    if (band) {
      const where = band.upTo === null ? 'above the last limit' : `up to ${band.upTo}`;
      throw invalid('steps_outside_increments', `max_step must be at least ${band.minStep}, the min_step this platform's increment table asks of bids ${where}`, { field: 'maxStep' });
    }
    if (rules.maxLotsPerSeller !== null) await this.requireRoomForLot(em, fields, rules.maxLotsPerSeller);
    return { ...fields, rulesVersion: version, deposit: rules.deposit ? depositFor(rules.deposit, fields.startPrice) : fields.deposit };
  }

  async shownStepsOf(em: EntityManager, lot: ListedLot): Promise<Steps | null> {
    const increments = (await this.ofLot(em, lot))?.increments;
    return increments ? shownSteps(lot, increments) : null;
  }

  /** The rules a lot was created with; null for a lot that follows the contract alone. */
  async ofLot(em: EntityManager, lot: Pick<Lot, 'publisherId' | 'rulesVersion'>): Promise<AuctionRules | null> {
    if (lot.rulesVersion === null) return null;
    const key = `${lot.publisherId}:${lot.rulesVersion}`;
    const cached = this.versions.get(key);
    if (cached) return cached;
    const row = await em.findOneOrFail(PlatformRules, { platformId: lot.publisherId, version: lot.rulesVersion });
    const rules = rulesOf(row.rules);
    this.versions.set(key, rules);
    return rules;
  }

  /** GET /lots/{id}/fee_estimate: what a buyer pays on top of a price, before bidding. Public, as the lot is. */
  async feeEstimate(ctx: RequestContext, input: Untrusted<FeeEstimateInput>): Promise<FeeEstimate> {
    const lot = await findLot(ctx.em, input.lotId);
    const { amount } = validateInput(feeEstimateInput, input, 'parameter');
    const fee = await this.buyerFeeOf(ctx.em, lot, amount);
    return { lot, amount, buyerFee: fee, total: amount.plus(fee) };
  }

  /** The buyer's fee on a price of this lot, by the schedule it was created with (0 without one). */
  async buyerFeeOf(em: EntityManager, lot: Lot, amount: Money): Promise<Money> {
    return buyerFee((await this.ofLot(em, lot))?.buyerFees ?? null, amount);
  }

  /** The rules a platform has now (version 0: never configured). */
  async current(em: EntityManager, platformId: string): Promise<RulesVersion> {
    const row = await em.findOne(PlatformRules, { platformId }, { orderBy: { version: 'desc' }, refresh: true });
    return row ? { platformId, version: row.version, rules: rulesOf(row.rules), createdAt: row.createdAt } : { platformId, version: 0, rules: NO_RULES, createdAt: null };
  }

  /** Two lots of one organizer created at once are counted one after the other (a lock per organizer, this transaction long). */
  private async requireRoomForLot(em: EntityManager, fields: NewLotFields, limit: number): Promise<void> {
    await rowsOf(em, sql`select pg_advisory_xact_lock(hashtextextended(${`open-lots:${fields.organizerId}`}, 0))`);
    const open = await em.count(Lot, { organizerId: fields.organizerId, publisherId: fields.publisherId, ...openWhere(new Date()) });
    if (open >= limit) throw conflict('open_lot_limit', `the organizer already has ${open} open lots on this platform, the most its rules allow`);
  }
}

function requireStaff(ctx: RequestContext, platformId: string) {
  const caller = requireCaller(ctx);
  if (!isStaffOf(caller, platformId)) throw forbidden('not_allowed', "only staff of the platform may read or change its rules");
  return caller;
}
