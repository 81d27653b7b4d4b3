import { formatMoney, type Money } from '../../core/money';
import { DEPOSIT_STATE_NAMES, PARTICIPANT_STATE_NAMES, type Deposit, type Participant, type WinnerDetails } from './trading.entity';
import type { Standing } from './standings.sql';
import type { DepositGql, ParticipantGql, ParticipationGql, WinnerDetailsGql } from './trading.types';

const money = (v: Money | null) => (v === null ? null : formatMoney(v));

export const participantGql = (p: Omit<Standing, 'leading'> | Participant): ParticipantGql => ({
  id: p.id,
  accountId: p.accountId,
  lotId: p.lotId,
  state: p.state,
  stateStr: PARTICIPANT_STATE_NAMES[p.state],
  requestedBuyNow: p.requestedBuyNow,
  currentBid: money(p.currentBid),
  maxBid: money(p.maxBid),
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

export const participationGql = (s: Standing): ParticipationGql => ({ ...participantGql(s), isLeading: s.leading });

export const depositGql = (d: Deposit): DepositGql => ({
  id: d.id,
  participantId: d.participantId,
  lotId: d.lotId,
  accountId: d.accountId,
  amount: formatMoney(d.amount),
  currency: d.currency,
  state: d.state,
  stateStr: DEPOSIT_STATE_NAMES[d.state],
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

export const winnerDetailsGql = (w: WinnerDetails): WinnerDetailsGql => ({
  lotId: w.lotId,
  invoiceId: w.invoiceId,
  invoicePaid: w.invoicePaid,
  dealCanceled: w.dealCanceled,
  containerId: w.containerId,
  serviceLink: w.serviceLink,
  feeAmount: money(w.feeAmount),
  transportationFee: money(w.transportationFee),
  feeCurrency: w.feeCurrency,
});
