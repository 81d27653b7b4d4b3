import type { EntityManager } from '@mikro-orm/postgresql';
import type { TransactionScope } from '../../core/transaction';
import type { LotClock } from './lots.clock';
import { lotFieldsOf, type LotDraft, type PastStart } from './lots.draft';
import { Lot } from './lots.entity';
import type { LotTerms } from './lots.terms';

/** Whoever watches for new lots (the saved searches): told of each, inside the transaction that makes it. */
export interface NewLotWatch {
  matchNewLot(em: EntityManager, scope: TransactionScope, lotId: string): Promise<unknown>;
}

/** Makes lots, for a staff member's POST /lots and for an approved create-lot request alike; the saved searches a new lot matches are notified. */
export class LotMaker {
  constructor(
    private readonly clock: LotClock,
    private readonly rules: Pick<LotTerms, 'applyToNewLot'>,
    private readonly searches: NewLotWatch,
  ) {}

  /** Makes a lot from a normalised body inside the caller's transaction, under its platform's rules; its notices are scheduled once committed. */
  async make(em: EntityManager, scope: TransactionScope, draft: LotDraft, organizerId: string, publisherId: string, pastStart: PastStart): Promise<Lot> {
    const lot = em.create(Lot, await this.rules.applyToNewLot(em, lotFieldsOf(draft, organizerId, publisherId, pastStart)));
    await em.flush();
    await this.searches.matchNewLot(em, scope, lot.id);
    scope.afterCommit(() => this.clock.lotTimesSet([lot]));
    return lot;
  }
}
