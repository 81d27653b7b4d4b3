import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { invalid, notFound } from '../../core/errors';
import { requireCaller } from '../../core/policies';
import { inTransaction, type TransactionScope } from '../../core/transaction';
import { validateInput, type Untrusted } from '../../core/validate';
import { LotState, type Lot, findLot, isClosed, type LotsService, type LotsView, requireReserveAccepted } from '../lots';
import { Deposit, DepositState, Participant, ParticipantState, WinnerDetails } from './trading.entity';
import type { BidLogService } from '../bidlog';
import { type NotificationsService, NotificationType } from '../notifications';
import type { LivePublisher } from '../../live/live.port';
import { requireInvoice } from '../documents';
import type { LotClock } from '../lots';
import { fitsMoneyColumn, formatMoney, type Money } from '../../core/money';
import { buyerFee, type RulesService } from '../rules';
import {
  chooseWinnerInput,
  closeLotInput,
  participantRef,
  WINNER_DETAILS_FIELDS,
  winnerDetailsInput,
  type ChooseWinnerInput,
  type CloseLotInput,
  type ParticipantRef,
  type WinnerDetailsChanges,
  type WinnerDetailsInput,
} from './trading.input';
import {
  findParticipant,
  OPEN_STATES,
  requireId,
  requireManager,
  requireNoWinner,
  requireOpen,
  requireTradable,
  returnPaidDeposits,
  settleLosers,
  supportsBuyNow,
  WINNER_STATES,
} from './trading.rules';

export interface WinnerChoice {
  winner: Participant;
  /** The other open participants, now lost. */
  lost: Participant[];
  /** Their paid deposits, now returned. */
  returned: Deposit[];
}

/** A closed lot, read again once the close committed, with the losers it settled. */
export interface ClosedLot {
  view: LotsView;
  lost: Participant[];
  returned: Deposit[];
}

export interface WinnerDetailsChange {
  details: WinnerDetails;
  /** Set when this change attached a new invoice_id. */
  invoiceAttached: boolean;
  /** The winner, when the change touched it or its deposit. */
  winner: Participant | null;
}

const CHARGEABLE = [DepositState.Pending, DepositState.Paid];

/** How a winner is chosen: by buy now, with consent to a price under the reserve, and the input field that names the choice. */
export interface AwardChoice {
  buyNow: boolean;
  acceptBelowReserve: boolean;
  chosenBy: 'participantId' | 'state';
}

/**
 * The buying-power check of a win on a lot its caller locked. Buying power reads the deposits and
 * participants of trading, so it stands above it and fills this port at wiring time.
 */
export interface WinnerPower {
  requireWinnerPower(em: EntityManager, lot: Pick<Lot, 'id' | 'publisherId'>, multiple: string, accountId: string, amount: Money, field: string): Promise<void>;
}

/**
 * What a lot's managers (its organizer, staff of its publisher) do with its participants
 *: choose the winner, reject a participant,
 * close the lot, record the winner's details. Each locks the lot row, so that of concurrent
 * choices exactly one winner results and a close never races a choice.
 */
export class WinnersService {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly lots: Pick<LotsService, 'get'>,
    private readonly bidLog: Pick<BidLogService, 'seal'>,
    private readonly live: LivePublisher,
    private readonly clock: LotClock,
    private readonly rules: RulesService,
    private readonly power: WinnerPower,
  ) {}

  /** POST /v2/lots/{id}/winners. */
  async chooseWinner(ctx: RequestContext, input: Untrusted<ChooseWinnerInput>): Promise<WinnerChoice> {
    requireCaller(ctx);
    return inTransaction(ctx, async (em, scope) => {
      const lot = await findLot(em, input.lotId, LockMode.PESSIMISTIC_WRITE);
      const participantId = requireId(input.participantId, 'participantId');
      const participant = await em.findOne(Participant, { id: participantId }, { refresh: true });
      if (!participant) throw notFound('participant_not_found', 'no participant with this id', { field: 'participantId' });
      requireManager(ctx, lot, 'choose its winner');
      const { buyNow, accountId, acceptBelowReserve } = validateInput(chooseWinnerInput, input);
      if (participant.lotId !== lot.id) throw invalid('not_participant', 'the participant belongs to another lot', { field: 'participantId' });
      if (accountId !== undefined && accountId !== participant.accountId) {
        throw invalid('not_participant', 'account_id is not the account of this participant', { field: 'accountId' });
      }
      return this.award(em, scope, lot, participant, { buyNow, acceptBelowReserve, chosenBy: 'participantId' });
    });
  }

  /**
   * The winner choice itself, on a lot its caller locked and after its caller checked who may
   * choose: every rule of choosing a winner, the losers settled, the buyer's fee, the notice.
   * A second-chance offer accepted (src/modules/offers) makes its winner through here too.
   * `acceptBelowReserve` is the chooser's consent to a bid under the lot's reserve price;
   * `chosenBy` is the input field a refusal of the winner names.
   */
  async award(em: EntityManager, scope: TransactionScope, lot: Lot, participant: Participant, choice: AwardChoice): Promise<WinnerChoice> {
    const { buyNow, acceptBelowReserve } = choice;
    requireTradable(lot);
    requireOpen(lot);
    requireNoWinner(lot);
    if (!OPEN_STATES.includes(participant.state)) {
      throw invalid('participant_not_eligible', 'only a pending or deposit_pending participant can win');
    }
    if (buyNow && !supportsBuyNow(lot)) {
      throw invalid('buy_now_not_supported', 'the lot does not support buy now', { field: 'buyNow' });
    }
    const price = buyNow ? lot.buyNowPrice : (participant.currentBid ?? lot.startPrice);
    if (!buyNow) {
      requireReserveAccepted(lot, participant.currentBid, acceptBelowReserve);
      // Buy now keeps its documented exception; any other win is held to buying power as a bid is.
      const multiple = (await this.rules.ofLot(em, lot))?.buyingPowerMultiple ?? null;
      if (multiple !== null) await this.power.requireWinnerPower(em, lot, multiple, participant.accountId, price, choice.chosenBy);
    }
    participant.state = buyNow ? ParticipantState.BuyNowWinner : ParticipantState.Winner;
    lot.winnerId = participant.accountId;
    const { lost, returned } = await settleLosers(em, lot.id, participant.id);
    await this.chargeBuyerFee(em, lot, price, choice.chosenBy);
    await em.flush();
    await this.notifications.emit(em, scope, NotificationType.Winner, [participant.accountId], { lot_id: lot.id });
    scope.afterCommit(() => this.live?.publishLotChanged(lot.id));
    return { winner: participant, lost, returned };
  }

  /** DELETE /v2/lots/{id}/participants/{account}: the participant is rejected; a paid deposit goes back. */
  async reject(ctx: RequestContext, input: Untrusted<ParticipantRef>): Promise<Participant> {
    requireCaller(ctx);
    const { lotId, accountId } = validateInput(participantRef, input);
    return inTransaction(ctx, async (em) => {
      const lot = await findLot(em, lotId, LockMode.PESSIMISTIC_WRITE);
      const participant = await findParticipant(em, lot.id, accountId);
      requireManager(ctx, lot, 'reject its participants');
      if (participant.state === ParticipantState.Rejected) return participant;
      requireOpen(lot);
      if (!OPEN_STATES.includes(participant.state)) {
        throw invalid('participant_not_rejectable', 'only a pending or deposit_pending participant can be rejected');
      }
      participant.state = ParticipantState.Rejected;
      await returnPaidDeposits(em, [participant.id]);
      await em.flush();
      return participant;
    });
  }

  /**
   * POST /lots/closed: sold needs a participant in winner or buy_now_winner, finished needs
   * none. Whoever is still open (pending or deposit_pending) loses, and paid deposits go back.
   */
  async close(ctx: RequestContext, input: Untrusted<CloseLotInput>): Promise<ClosedLot> {
    requireCaller(ctx);
    const lotId = requireId(input.lotId, 'lotId');
    const closed = await inTransaction(ctx, async (em, scope) => {
      const lot = await findLot(em, lotId, LockMode.PESSIMISTIC_WRITE, { field: 'lotId' });
      requireManager(ctx, lot, 'close it');
      const { state } = validateInput(closeLotInput, input);
      requireTradable(lot);
      if (isClosed(lot)) throw invalid('lot_closed', 'the lot is already closed');
      const winners = await em.count(Participant, { lotId: lot.id, state: { $in: WINNER_STATES } });
      if (state === 'sold' && !winners) {
        throw invalid('lot_has_no_winner', 'a lot is closed sold only when a participant is winner or buy_now_winner', { field: 'state' });
      }
      if (state === 'finished' && winners) {
        throw invalid('lot_has_winner', 'a lot with a winner is closed sold, not finished', { field: 'state' });
      }
      lot.lotState = state === 'sold' ? LotState.Sold : LotState.Finished;
      const { lost, returned } = await settleLosers(em, lot.id, null);
      await em.flush();
      await this.bidLog.seal(em, lot);
      scope.afterCommit(() => this.live?.publishLotChanged(lot.id));
      if (lot.lotState === LotState.Sold) scope.afterCommit(() => this.clock?.lotClosedSold(lot.id));
      return { lotId: lot.id, lost, returned };
    });
    return { view: await this.lots.get(ctx, { id: closed.lotId }), lost: closed.lost, returned: closed.returned };
  }

  /**
   * PUT /lots/{id}/winner_details: creates or updates the lot's winner details. Absent attributes
   * keep their value. `deal_canceled: true` moves the winner to deal_canceled and charges its
   * deposit; `invoice_paid: true` charges the winner's deposit. Neither can be undone.
   */
  async setWinnerDetails(ctx: RequestContext, input: Untrusted<WinnerDetailsInput>): Promise<WinnerDetailsChange> {
    requireCaller(ctx);
    return inTransaction(ctx, async (em, scope) => {
      const lot = await findLot(em, input.lotId, LockMode.PESSIMISTIC_WRITE);
      requireManager(ctx, lot, 'set its winner details');
      const attrs = validateInput(winnerDetailsInput, input);
      requireTradable(lot);
      const details = (await em.findOne(WinnerDetails, { lotId: lot.id }, { refresh: true })) ?? em.create(WinnerDetails, { lotId: lot.id });
      for (const [flag, name] of [['dealCanceled', 'deal_canceled'], ['invoicePaid', 'invoice_paid']] as const) {
        if (details[flag] === true && attrs[flag] !== undefined && attrs[flag] !== true) {
          throw invalid('winner_details_final', `${name} cannot be undone once true`, { field: flag });
        }
      }
      if (typeof attrs.invoiceId === 'string' && attrs.invoiceId !== details.invoiceId) {
        await requireInvoice(em, attrs.invoiceId, lot.winnerId);
      }
      const cancels = attrs.dealCanceled === true && details.dealCanceled !== true;
      const pays = attrs.invoicePaid === true && details.invoicePaid !== true;
      const winner = cancels || pays ? await this.winnerOf(em, lot) : null;
      if (winner) {
        if (cancels && WINNER_STATES.includes(winner.state)) winner.state = ParticipantState.DealCanceled;
        const deposit = await em.findOne(Deposit, { participantId: winner.id, state: { $in: CHARGEABLE } }, { refresh: true });
        if (deposit) deposit.state = DepositState.FeeCharged;
      }
      const invoiceAttached = typeof attrs.invoiceId === 'string' && attrs.invoiceId !== details.invoiceId;
      assignDetails(details, attrs);
      await em.flush();
      scope.afterCommit(() => this.live?.publishLotChanged(lot.id));
      if (invoiceAttached && lot.winnerId) {
        await this.notifications.emit(em, scope, NotificationType.InvoiceAttached, [lot.winnerId], { lot_id: lot.id, invoice_id: details.invoiceId as string });
      }
      return { details, invoiceAttached, winner };
    });
  }

  /**
   * A lot created under a buyer's fee schedule records the winner's fee in its winner details. A
   * schedule and a price that are each in range can make a fee that no amount column holds: the
   * choice is refused (naming the input that chose the winner), not failed on the insert.
   */
  private async chargeBuyerFee(em: EntityManager, lot: Lot, price: Money, chosenBy: AwardChoice['chosenBy']): Promise<void> {
    const schedule = (await this.rules.ofLot(em, lot))?.buyerFees;
    if (!schedule) return;
    const fee = buyerFee(schedule, price);
    if (!fitsMoneyColumn(fee)) {
      throw invalid('fee_out_of_range', `the buyer's fee on ${formatMoney(price)} ${lot.currency} under this lot's rules would be ${formatMoney(fee)}, more than the largest amount the marketplace keeps (999999999999999999.99): choose another winner, or lower the platform's buyer_fees for later lots`, { field: chosenBy });
    }
    const details = (await em.findOne(WinnerDetails, { lotId: lot.id }, { refresh: true })) ?? em.create(WinnerDetails, { lotId: lot.id });
    details.feeAmount = fee;
    details.feeCurrency = lot.currency;
  }

  /** The winning participant, for the effects of deal_canceled and invoice_paid: 400 without one. */
  private async winnerOf(em: EntityManager, lot: Lot): Promise<Participant> {
    const winner = lot.winnerId ? await em.findOne(Participant, { lotId: lot.id, accountId: lot.winnerId }, { refresh: true }) : null;
    if (!winner) throw invalid('lot_has_no_winner', 'deal_canceled and invoice_paid need a lot with a winner');
    return winner;
  }
}

function assignDetails(details: WinnerDetails, changes: WinnerDetailsChanges): void {
  for (const field of WINNER_DETAILS_FIELDS) {
    if (changes[field] !== undefined) Object.assign(details, { [field]: changes[field] });
  }
}
