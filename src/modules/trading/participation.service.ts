import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../core/context';
import { conflict, forbidden, invalid } from '../../core/errors';
import { managesLot, requireActive, requireCaller } from '../../core/policies';
import { inTransaction } from '../../core/transaction';
import { uniquely } from '../../core/unique';
import { validateInput, type Untrusted } from '../../core/validate';
import { AccountType } from '../../core/account-type';
import { LotType, findLot } from '../lots';
import { Deposit, DepositState, Participant, ParticipantState } from './trading.entity';
import { participantRef, participateInput, type ParticipantRef, type ParticipateInput } from './trading.input';
import { findParticipant, OPEN_STATES, requireBidsBelowBuyNow, requireNotEnded, requireNoWinner, requireOpen, requireTradable, supportsBuyNow } from './trading.rules';
import { NotificationType, staffOf, type NotificationsService } from '../notifications';
import { listBound } from '../../core/page';
import { standingsOfAccount, standingsOnLots, standingsWindow, type Standing } from './standings.sql';
import type { ListWindow, WindowPage } from '../../core/list-window';

export interface Participation {
  participant: Participant;
  /** The pending deposit, when the lot asks for one. */
  deposit: Deposit | null;
}

const PARTICIPANT_TYPES = new Set([AccountType.User, AccountType.Broker]);

const alreadyParticipant = () => conflict('already_participant', 'the account already takes part in this lot');

/**
 * What a participant does by itself: request
 * participation, and request buy now.
 */
export class ParticipationService {
  constructor(private readonly notifications: NotificationsService) {}

  /** Participants by id (a GraphQL request's batch): shown whole beside the deposits the caller may see. */
  byIds(ctx: RequestContext, ids: readonly string[]): Promise<Participant[]> {
    return ctx.em.find(Participant, { id: { $in: [...ids] } });
  }

  /** The caller's newest `first` participations (by default and at most 100), newest first, each saying whether it leads its lot. */
  standingsOfCaller(ctx: RequestContext, first?: number): Promise<Standing[]> {
    const caller = requireCaller(ctx);
    return standingsOfAccount(ctx.em, caller.accountId, listBound(first, 'first'));
  }

  /** A window of the caller's participations, newest first, paged in the database (`Viewer.participations`). */
  standingsWindowOfCaller(ctx: RequestContext, window: ListWindow): Promise<WindowPage<Standing>> {
    const caller = requireCaller(ctx);
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    return standingsWindow(ctx.em, caller.accountId, window);
  }

  /** The caller's own participation in each of the lots (a GraphQL request's batch); none for an anonymous caller. */
  async callerStandingsOn(ctx: RequestContext, lotIds: readonly string[]): Promise<Standing[]> {
    return ctx.caller ? standingsOnLots(ctx.em, ctx.caller.accountId, lotIds) : [];
  }

  /**
   * POST /lots/{id}/participation_requests: the caller (a user or broker) joins the lot. With a
   * deposit above zero the participant waits for it (deposit_pending, plus a pending deposit of
   * the lot's amount and currency); otherwise it is pending at once. The lot row is share-locked
   * so that no participant slips in beside a winner being chosen; the unique (lot, account)
   * index decides between two requests of one account.
   */
  async participate(ctx: RequestContext, input: Untrusted<ParticipateInput>): Promise<Participation> {
    const caller = requireCaller(ctx);
    return uniquely(
      () =>
        inTransaction(ctx, async (em, scope) => {
          const lot = await findLot(em, input.lotId, LockMode.PESSIMISTIC_READ);
          if (managesLot(ctx.caller, lot)) throw forbidden('owner_cannot_participate', "the lot's organizer and its publisher's staff cannot take part in it");
          if (!PARTICIPANT_TYPES.has(caller.accountType)) throw forbidden('not_allowed', 'only users and brokers take part in lots');
          requireActive(caller);
          const { buyNow } = validateInput(participateInput, input);
          requireTradable(lot);
          requireOpen(lot);
          requireNoWinner(lot);
          requireNotEnded(lot);
          if (lot.lotType === LotType.NoAuction && !buyNow) {
            throw invalid('buy_now_required', 'a direct sale is joined with buy_now true', { field: 'buyNow' });
          }
          if (buyNow && !supportsBuyNow(lot)) {
            throw invalid('buy_now_not_supported', 'the lot does not support buy now', { field: 'buyNow' });
          }
          if (await em.count(Participant, { lotId: lot.id, accountId: caller.accountId })) throw alreadyParticipant();
          if (buyNow) requireBidsBelowBuyNow(lot, { field: 'buyNow' });

          const needsDeposit = lot.deposit.gt(0);
          const participant = em.create(Participant, {
            lotId: lot.id,
            accountId: caller.accountId,
            state: needsDeposit ? ParticipantState.DepositPending : ParticipantState.Pending,
            requestedBuyNow: buyNow,
          });
          await em.flush();
          const deposit = needsDeposit
            ? em.create(Deposit, {
                participantId: participant.id,
                lotId: lot.id,
                accountId: caller.accountId,
                amount: lot.deposit,
                currency: lot.currency,
                state: DepositState.Pending,
              })
            : null;
          await em.flush();
          if (deposit) await this.notifications.emit(em, scope, NotificationType.DepositPending, [caller.accountId]);
          else await this.notifications.emit(em, scope, NotificationType.NewActiveTrade, await staffOf(em, lot.publisherId), { lot_id: lot.id, account_id: caller.accountId });
          return { participant, deposit };
        }),
      alreadyParticipant,
    );
  }

  /**
   * PATCH /v2/lots/{id}/participants/{account}: a pending participant asks to buy the lot now.
   * The lot row is locked, so of two participants asking at once one gets 409.
   */
  async buyNow(ctx: RequestContext, input: Untrusted<ParticipantRef>): Promise<Participant> {
    const caller = requireCaller(ctx);
    const { lotId, accountId } = validateInput(participantRef, input);
    return inTransaction(ctx, async (em, scope) => {
      const lot = await findLot(em, lotId, LockMode.PESSIMISTIC_WRITE);
      const participant = await findParticipant(em, lot.id, accountId);
      if (participant.accountId !== caller.accountId) throw forbidden('not_allowed', 'only the participant itself may request buy now');
      requireActive(caller);
      requireTradable(lot);
      requireOpen(lot);
      if (!supportsBuyNow(lot)) throw invalid('buy_now_not_supported', 'the lot does not support buy now');
      requireNoWinner(lot);
      requireNotEnded(lot);
      if (participant.state !== ParticipantState.Pending) {
        throw invalid('participant_not_pending', 'only a participant whose deposit is settled (state pending) may request buy now');
      }
      if (participant.requestedBuyNow) return participant;
      requireBidsBelowBuyNow(lot);
      const other = await em.count(Participant, { lotId: lot.id, id: { $ne: participant.id }, requestedBuyNow: true, state: { $in: OPEN_STATES } });
      if (other) throw conflict('buy_now_pending', 'another participant has already requested buy now');
      participant.requestedBuyNow = true;
      await em.flush();
      await this.notifications.emit(em, scope, NotificationType.NewActiveTrade, await staffOf(em, lot.publisherId), { lot_id: lot.id, account_id: participant.accountId });
      return participant;
    });
  }
}
