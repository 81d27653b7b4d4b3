import type { EntityManager } from '@mikro-orm/postgresql';
import { FeeBumpTransaction, TransactionBuilder, xdr, type Transaction } from '@stellar/stellar-sdk';
import type { RequestContext } from '../../core/context';
import { DomainError, invalid, notFound } from '../../core/errors';
import { Money } from '../../core/money';
import { inTransaction, type TransactionScope } from '../../core/transaction';
import { validateInput, type Untrusted } from '../../core/validate';
import { AccountSigner } from '../accounts/accounts.entity';
import { Lot } from '../lots/lots.entity';
import type { DepositsService } from '../trading/deposits.service';
import { Deposit } from '../trading/trading.entity';
import { EmbeddedLedger, TransactionRejected, type SubmittedTransaction } from './ledger.embedded';
import { LedgerAccount, LedgerBalance } from './ledger.entity';
import type { HorizonRelay } from './ledger.horizon';
import { submitTransactionInput, type SubmitTransactionInput } from './ledger.input';
import { baseAddress, stroops } from './ledger.operations';
import { resultCodes, transactionResult } from './ledger.xdr';

export interface LedgerAccountView {
  id: string;
  sequence: bigint;
  balances: { assetCode: string; assetIssuer: string; balance: bigint }[];
  signers: { key: string; weight: number }[];
  thresholds: { low: number; medium: number; high: number };
}

const DEPOSIT_MEMO = /^deposit:(\d{1,18})$/;

/**
 * POST /transactions and GET /ledger/accounts/{id} (INTERFACE.md §4.3, PROTOCOL.md §8, §9):
 * transactions go to the embedded ledger, or to Horizon when one is configured; a payment with a
 * `deposit:<id>` memo pays that deposit in the same database transaction.
 */
export class LedgerService {
  private readonly embedded = new EmbeddedLedger();

  constructor(
    private readonly networkPassphrase: string,
    private readonly deposits: DepositsService,
    private readonly relay: HorizonRelay | null,
  ) {}

  async submit(ctx: RequestContext, input: Untrusted<SubmitTransactionInput>): Promise<SubmittedTransaction> {
    const { tx: envelope } = validateInput(submitTransactionInput, input);
    let decoded: Transaction | FeeBumpTransaction;
    try {
      decoded = TransactionBuilder.fromXDR(envelope, this.networkPassphrase);
    } catch {
      throw invalid('invalid_field', 'tx is not a base64 XDR transaction envelope', { field: 'tx' });
    }
    const tx = decoded instanceof FeeBumpTransaction ? decoded.innerTransaction : decoded;
    try {
      if (this.relay) {
        const relayed = await this.relay.submit(decoded);
        await inTransaction(ctx, (em, scope) => this.payDeposit(em, scope, tx));
        return relayed;
      }
      // Fee bumps pay fees, which the embedded ledger does not charge.
      if (decoded instanceof FeeBumpTransaction) throw new TransactionRejected(transactionResult(xdr.TransactionResultResult.txNotSupported()));
      return await inTransaction(ctx, async (em, scope) => {
        const submitted = await this.embedded.apply(em, tx);
        await this.payDeposit(em, scope, tx);
        return submitted;
      });
    } catch (err) {
      if (!(err instanceof TransactionRejected)) throw err;
      const codes = resultCodes(err.result);
      throw new DomainError('invalid', [
        {
          code: 'transaction_failed',
          detail: `the transaction was rejected: ${[codes.transaction, ...(codes.operations ?? [])].join(', ')}`,
          meta: { 'auction-xdr': err.result.toXDR('base64'), result_codes: codes },
        },
      ]);
    }
  }

  async account(ctx: RequestContext, id: string): Promise<LedgerAccountView> {
    const account = await ctx.em.findOne(LedgerAccount, { id });
    if (!account) throw notFound('ledger_account_not_found', 'no ledger account with this id');
    const signers = await ctx.em.find(AccountSigner, { accountId: id }, { orderBy: { signerKey: 'asc' } });
    const balances = await ctx.em.find(LedgerBalance, { accountId: id }, { orderBy: { assetCode: 'asc', assetIssuer: 'asc' } });
    return {
      id,
      sequence: account.sequence,
      balances: balances.map((b) => ({ assetCode: b.assetCode, assetIssuer: b.assetIssuer, balance: b.balance })),
      signers: [{ key: id, weight: account.masterWeight }, ...signers.map((s) => ({ key: s.signerKey, weight: s.weight }))],
      thresholds: { low: account.lowThreshold, medium: account.medThreshold, high: account.highThreshold },
    };
  }

  /**
   * PROTOCOL.md §9: a payment to the lot's publisher, in the asset coded as the deposit's
   * currency and issued by the publisher, of at least the deposit's amount, with memo text
   * `deposit:<id>`, marks a pending deposit paid. Any other payment is just a payment.
   */
  private async payDeposit(em: EntityManager, scope: TransactionScope, tx: Transaction): Promise<void> {
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
