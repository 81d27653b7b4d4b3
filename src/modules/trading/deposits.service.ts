import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { forbidden, invalid, notFound } from '../../core/errors';
import { isStaffOf, requireCaller, staffPlatforms } from '../../core/policies';
import { inTransaction, type TransactionScope } from '../../core/transaction';
import { validateInput, type Untrusted } from '../../core/validate';
import type { KeysetPage } from '../../core/page';
import { Lot } from '../lots';
import { depositCount, depositPage } from './deposits.listing';
import { Deposit, DepositState, Participant, ParticipantState } from './trading.entity';
import { depositPageInput, depositStateInput, type DepositPageInput, type DepositStateInput } from './trading.input';
import { integerId } from '../../core/ids';
import { NotificationType, staffOf, type NotificationsService } from '../notifications';

export interface DepositsView extends KeysetPage<Deposit> {
  /** The deposits' participants, by participant id, when they were asked for. */
  participants: Map<string, Participant>;
}

export interface DepositChange {
  deposit: Deposit;
  /** Set when paying the deposit moved its participant from deposit_pending to pending. */
  activated: Participant | null;
}

/**
 * Whether a deposit may become paid, by staff or by a ledger payment: a pending one, or one
 * returned to a participant still taking part (returning it took back the right to bid, and
 * paying it again gives it back).
 */
async function payable(em: EntityManager, deposit: Deposit): Promise<boolean> {
  if (deposit.state === DepositState.Pending) return true;
  if (deposit.state !== DepositState.Returned) return false;
  return (await em.findOne(Participant, { id: deposit.participantId }, { refresh: true }))?.state === ParticipantState.DepositPending;
}

/**
 * Deposits: listed for their depositors and
 * the lots' managers; their state is set by staff of the lot's publisher.
 */
export class DepositsService {
  constructor(private readonly notifications: NotificationsService) {}

  /**
   * GET /deposits: the caller's own deposits, and those on lots it organizes or whose publisher
   * it is staff of; one keyset page, with the participants when asked.
   */
  async list(ctx: RequestContext, input: Untrusted<DepositPageInput>): Promise<DepositsView> {
    const req = validateInput(depositPageInput, input, 'parameter');
    const caller = requireCaller(ctx);
    const page = await depositPage(ctx.em, { accountId: caller.accountId, platforms: staffPlatforms(caller) }, req);
    const ids = [...new Set(page.items.map((d) => d.participantId))];
    const participants = req.withParticipants && ids.length ? await ctx.em.find(Participant, { id: { $in: ids } }) : [];
    return { ...page, participants: new Map(participants.map((p) => [p.id, p])) };
  }

  /** How many deposits `list` pages through under the same filter, for the same caller: one statement. */
  async count(ctx: RequestContext, input: Untrusted<Pick<DepositPageInput, 'filter'>>): Promise<number> {
    const { filter } = validateInput(depositPageInput, input, 'parameter');
    const caller = requireCaller(ctx);
    return depositCount(ctx.em, { accountId: caller.accountId, platforms: staffPlatforms(caller) }, filter);
  }

  /**
   * PATCH /deposits/{id}: staff of the lot's publisher mark a pending deposit paid (its
   * deposit_pending participant becomes pending) or a paid one returned. The lot row is
   * share-locked first, as every trading change takes the lot before its participants and
   * deposits, then the deposit row is locked.
   */
  async setState(ctx: RequestContext, input: Untrusted<DepositStateInput>): Promise<DepositChange> {
    const caller = requireCaller(ctx);
    const depositId = integerId(input.id);
    return inTransaction(ctx, async (em, scope) => {
      const found = depositId === null ? null : await em.findOne(Deposit, { id: depositId }, { refresh: true });
      if (!found) throw notFound('deposit_not_found', 'no deposit with this id');
      const lot = await em.findOneOrFail(Lot, { id: found.lotId }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
      if (!isStaffOf(caller, lot.publisherId)) throw forbidden('not_allowed', "only staff of the lot's publisher may set a deposit's state");
      const { state } = validateInput(depositStateInput, input);
      const deposit = await em.findOneOrFail(Deposit, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (state === 'paid' ? !(await payable(em, deposit)) : deposit.state !== DepositState.Paid) {
        const detail = state === 'paid' ? 'a deposit becomes paid only from pending, or from returned while its participant takes part (deposit_pending)' : 'a deposit becomes returned only from paid';
        throw invalid('invalid_deposit_transition', detail, { field: 'state' });
      }
      return this.move(em, scope, lot, deposit, state === 'paid' ? DepositState.Paid : DepositState.Returned);
    });
  }

  /**
   * Marks a deposit paid inside the caller's transaction (a ledger payment with its memo), with
   * the same locks, rule (`payable`), participant move and notifications as PATCH /deposits/{id}.
   * Null when the deposit may not become paid.
   */
  async markPaid(em: EntityManager, scope: TransactionScope, depositId: string): Promise<DepositChange | null> {
    const found = await em.findOneOrFail(Deposit, { id: depositId }, { refresh: true });
    const lot = await em.findOneOrFail(Lot, { id: found.lotId }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
    const deposit = await em.findOneOrFail(Deposit, { id: depositId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!(await payable(em, deposit))) return null;
    return this.move(em, scope, lot, deposit, DepositState.Paid);
  }

  /**
   * A paid deposit activates its deposit_pending participant; both are announced after the
   * commit. A deposit returned to a participant still taking part (pending) takes back its right
   * to bid: it is deposit_pending again until the deposit is paid again. Its bids stand.
   */
  private async move(em: EntityManager, scope: TransactionScope, lot: Lot, deposit: Deposit, to: DepositState): Promise<DepositChange> {
    deposit.state = to;
    let activated: Participant | null = null;
    const participant = await em.findOne(Participant, { id: deposit.participantId }, { refresh: true });
    if (to === DepositState.Paid && participant?.state === ParticipantState.DepositPending) {
      participant.state = ParticipantState.Pending;
      activated = participant;
    }
    if (to === DepositState.Returned && participant?.state === ParticipantState.Pending) participant.state = ParticipantState.DepositPending;
    await em.flush();
    if (deposit.state === DepositState.Paid) {
      await this.notifications.emit(em, scope, NotificationType.DepositReceived, [deposit.accountId], { lot_id: lot.id });
    }
    if (activated) {
      await this.notifications.emit(em, scope, NotificationType.NewActiveTrade, await staffOf(em, lot.publisherId), { lot_id: lot.id, account_id: activated.accountId });
    }
    return { deposit, activated };
  }
}
