import type { EntityManager } from '@mikro-orm/postgresql';
import type { Transaction } from '@stellar/stellar-sdk';
import { Money } from '../../core/money';
import type { TransactionScope } from '../../core/transaction';
import { Lot } from '../lots';
import { type DepositsService, Deposit } from '../trading';
import { baseAddress, stroops } from './ledger.operations';

const DEPOSIT_MEMO = /^deposit:(\d{1,18})$/;

/**
 * A payment to the lot's publisher, in the asset coded as the deposit's
 * currency and issued by the publisher, of at least the deposit's amount, with memo text
 * `deposit:<id>`, marks the deposit paid when staff could (a pending one, or one returned to a
 * participant still taking part). Any other payment is just a payment. Paying a deposit twice
 * changes nothing, so a relayed payment may be completed again safely.
 */
export class DepositPayments {
  constructor(private readonly deposits: DepositsService) {}

  async pay(em: EntityManager, scope: TransactionScope, tx: Transaction): Promise<void> {
    if (tx.memo.type !== 'text' || tx.memo.value === null) return;
    const match = DEPOSIT_MEMO.exec(Buffer.from(tx.memo.value).toString('utf8'));
    if (!match) return;
    const deposit = await em.findOne(Deposit, { id: match[1] });
    const lot = deposit ? await em.findOne(Lot, { id: deposit.lotId }) : null;
    if (!deposit || !lot) return;
    const due = stroops(new Money(deposit.amount).toFixed(7));
    const paid = tx.operations.some(
      (op) =>
        op.type === 'payment' &&
        baseAddress(op.destination) === lot.publisherId &&
        !op.asset.isNative() &&
        op.asset.getCode() === deposit.currency &&
        op.asset.getIssuer() === lot.publisherId &&
        stroops(op.amount) >= due,
    );
    if (paid) await this.deposits.markPaid(em, scope, deposit.id);
  }
}
