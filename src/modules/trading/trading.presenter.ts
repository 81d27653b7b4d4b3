import { formatMoney, jsonAmount, type Money } from '../../core/money';
import { rfc3339 } from '../../core/time';
import type { Resource } from '../../rest/document';
import { type Deposit, DEPOSIT_STATE_NAMES, type Participant, PARTICIPANT_STATE_NAMES, type WinnerDetails } from './trading.entity';

export function presentParticipant(p: Participant): Resource {
  return {
    type: 'participants',
    id: p.id,
    attributes: {
      account_id: p.accountId,
      lot_id: Number(p.lotId),
      state: p.state,
      state_str: PARTICIPANT_STATE_NAMES[p.state],
      requested_buy_now: p.requestedBuyNow,
      current_bid: p.currentBid === null ? null : formatMoney(p.currentBid),
      max_bid: p.maxBid === null ? null : formatMoney(p.maxBid),
      created_at: rfc3339(p.createdAt),
      updated_at: rfc3339(p.updatedAt),
    },
  };
}

/** A deposit; `amount` a decimal string but in the set-state answer (`presentDepositState`). */
export function presentDeposit(d: Deposit, amount: string | number = formatMoney(d.amount)): Resource {
  return {
    type: 'deposits',
    id: d.id,
    attributes: {
      amount,
      currency: d.currency,
      participant_id: Number(d.participantId),
      account_id: d.accountId,
      state: d.state,
      state_str: DEPOSIT_STATE_NAMES[d.state],
      created_at: rfc3339(d.createdAt),
      updated_at: rfc3339(d.updatedAt),
    },
  };
}

export function presentWinnerDetails(w: WinnerDetails): Resource {
  const number = (v: Money | null) => (v === null ? null : jsonAmount(v));
  return {
    type: 'winner_details',
    id: w.lotId,
    attributes: {
      invoice_id: w.invoiceId,
      invoice_paid: w.invoicePaid,
      deal_canceled: w.dealCanceled,
      container_id: w.containerId,
      service_link: w.serviceLink,
      fee_amount: number(w.feeAmount),
      transportation_fee: number(w.transportationFee),
      fee_currency: w.feeCurrency,
    },
  };
}

/** The set-state response (PATCH /deposits/{id}): `amount` is a JSON number there (the contract keeps it so, unlike other money) when one carries it exactly. */
export const presentDepositState = (d: Deposit): Resource => presentDeposit(d, jsonAmount(d.amount));
