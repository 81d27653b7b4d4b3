import { formatMoney, type Money } from '../../core/money';
import { DEPOSIT_STATE_NAMES, PARTICIPANT_STATE_NAMES, type Deposit, type Participant, type WinnerDetails } from './trading.entity';
import type { Standing } from './standings.sql';
import type { DepositGql, ParticipantGql, ParticipationGql, WinnerDetailsGql } from './trading.types';

const decimal = (v: Money | null) => (v === null ? null : formatMoney(v));
/** An amount in its currency, the shape of GraphQL's Money. */
const money = (amount: Money, currency: string) => ({ amount: formatMoney(amount), currency });

export const participantGql = (p: Omit<Standing, 'leading'> | Participant): ParticipantGql => ({
  id: p.id,
  accountId: p.accountId,
  lotId: p.lotId,
  state: p.state,
  stateStr: PARTICIPANT_STATE_NAMES[p.state],
  requestedBuyNow: p.requestedBuyNow,
  currentBid: decimal(p.currentBid),
  maxBid: decimal(p.maxBid),
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
  amountMoney: money(d.amount, d.currency),
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
  feeAmount: decimal(w.feeAmount),
  transportationFee: decimal(w.transportationFee),
  feeCurrency: w.feeCurrency,
  fee: w.feeAmount === null || w.feeCurrency === null ? null : money(w.feeAmount, w.feeCurrency),
  transportationFeeMoney: w.transportationFee === null || w.feeCurrency === null ? null : money(w.transportationFee, w.feeCurrency),
});
