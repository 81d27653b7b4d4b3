import type { EntityManager } from '@mikro-orm/postgresql';
import { FeeBumpTransaction, TransactionBuilder, xdr, type Transaction } from '@stellar/stellar-sdk';
import type { RequestContext } from '../../core/context';
import { DomainError, forbidden, invalid, notFound } from '../../core/errors';
import { inTransaction } from '../../core/transaction';
import { validateInput, type Untrusted } from '../../core/validate';
import { AccountSigner } from '../accounts';
import type { DepositPayments } from './ledger.deposits';
import { EmbeddedLedger, TransactionRejected, type SubmittedTransaction } from './ledger.embedded';
import { LedgerAccount, LedgerBalance, LedgerTransaction } from './ledger.entity';
import type { HorizonRelay } from './ledger.horizon';
import { submitTransactionInput, type SubmitTransactionInput } from './ledger.input';
import type { RelayedSubmissions } from './ledger.relay';
import { changesAuthOf } from './ledger.operations';
import { resultCodes, transactionResult } from './ledger.xdr';

export interface LedgerAccountView {
  id: string;
  sequence: bigint;
  balances: { assetCode: string; assetIssuer: string; balance: bigint }[];
  signers: { key: string; weight: number }[];
  thresholds: { low: number; medium: number; high: number };
}

/** A transaction that reached the ledger, as Horizon shows one. */
export interface LedgerTransactionView {
  hash: string;
  ledger: number;
  sourceAccount: string;
  envelopeXdr: string;
  resultXdr: string;
  successful: boolean;
}

/**
 * POST /transactions and GET /ledger/accounts/{id}:
 * transactions go to the embedded ledger, where a payment with a `deposit:<id>` memo pays that
 * deposit in the same database transaction, or to Horizon when one is configured, where the
 * deposit is written once Horizon accepted (ledger.relay.ts).
 */
/**
 * Horizon did not answer whether it took a relayed transaction (a timeout, a 5xx): the network may
 * still apply it, and the relay job settles it. Answered as the gateway failure it wraps, with the
 * hash by which its outcome is looked up later.
 */
export class OutcomeUnknown extends DomainError {
  constructor(
    cause: DomainError,
    readonly hash: string,
  ) {
    super(cause.kind, cause.items);
  }
}

export class LedgerService {
  private readonly embedded = new EmbeddedLedger();

  constructor(
    private readonly networkPassphrase: string,
    private readonly payments: DepositPayments,
    private readonly relay: RelayedSubmissions | null,
    private readonly horizon: HorizonRelay | null,
    /** The master account (G…), whose signers are changed from the local machine only. */
    private readonly masterAccountId: string,
  ) {}

  /** The embedded ledger, for the module's writers that apply their own transactions. */
  get embeddedLedger(): EmbeddedLedger {
    return this.embedded;
  }

  async submit(ctx: RequestContext, input: Untrusted<SubmitTransactionInput>): Promise<SubmittedTransaction> {
    const { tx: envelope } = validateInput(submitTransactionInput, input);
    let decoded: Transaction | FeeBumpTransaction;
    try {
      decoded = TransactionBuilder.fromXDR(envelope, this.networkPassphrase);
    } catch {
      throw invalid('invalid_field', 'tx is not a base64 XDR transaction envelope', { field: 'tx' });
    }
    const tx = decoded instanceof FeeBumpTransaction ? decoded.innerTransaction : decoded;
    if (!ctx.local && changesAuthOf(tx, this.masterAccountId)) {
      throw forbidden('local_only', "the master account's signers, master weight and thresholds can be changed only from the local machine, as POST /master/signers adds its signers");
    }
    try {
      if (this.relay) {
        try {
          return await this.relay.submit(ctx, decoded);
        } catch (err) {
          throw err instanceof DomainError && err.code === 'ledger_unavailable' ? new OutcomeUnknown(err, decoded.hash().toString('hex')) : err;
        }
      }
      // Fee bumps pay fees, which the embedded ledger does not charge.
      if (decoded instanceof FeeBumpTransaction) throw new TransactionRejected(transactionResult(xdr.TransactionResultResult.txNotSupported()));
      return await inTransaction(ctx, async (em, scope) => {
        const submitted = await this.embedded.apply(em, tx);
        await this.payments.pay(em, scope, tx);
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

  /** The relay job's run (`HORIZON_URL`): answers how many relayed transactions it completed. */
  async completeRelayed(em: EntityManager): Promise<number> {
    return this.relay ? this.relay.completeDue(em) : 0;
  }

  /** GET /ledger/transactions/{hash}: a transaction of the embedded ledger, or of the network behind `HORIZON_URL`. */
  async transaction(ctx: RequestContext, hash: string): Promise<LedgerTransactionView> {
    // A malformed hash names no transaction, as a malformed id names no lot.
    const found = !/^[0-9a-f]{64}$/.test(hash) ? null : this.horizon ? await this.horizon.transaction(hash) : await this.embeddedTransaction(ctx, hash);
    if (!found) throw notFound('ledger_transaction_not_found', 'no transaction with this hash is in the ledger');
    return found;
  }

  private async embeddedTransaction(ctx: RequestContext, hash: string): Promise<LedgerTransactionView | null> {
    const tx = await ctx.em.findOne(LedgerTransaction, { hash });
    return tx && { hash: tx.hash, ledger: tx.ledger, sourceAccount: tx.sourceAccount, envelopeXdr: tx.envelopeXdr, resultXdr: tx.resultXdr, successful: true };
  }

  async account(ctx: RequestContext, id: string): Promise<LedgerAccountView> {
    const [account] = await this.accounts(ctx, [id]);
    if (!account) throw notFound('ledger_account_not_found', 'no ledger account with this id');
    return account;
  }

  /** The ledger accounts of `ids`, as `account` reads one (public), three statements for any number; ids of none are absent. */
  async accounts(ctx: RequestContext, ids: readonly string[]): Promise<LedgerAccountView[]> {
    const accounts = ids.length ? await ctx.em.find(LedgerAccount, { id: { $in: [...ids] } }) : [];
    if (!accounts.length) return [];
    const found = accounts.map((a) => a.id);
    const signers = await ctx.em.find(AccountSigner, { accountId: { $in: found } }, { orderBy: { signerKey: 'asc' } });
    const balances = await ctx.em.find(LedgerBalance, { accountId: { $in: found } }, { orderBy: { assetCode: 'asc', assetIssuer: 'asc' } });
    return accounts.map((account) => ({
      id: account.id,
      sequence: account.sequence,
      balances: balances.filter((b) => b.accountId === account.id).map((b) => ({ assetCode: b.assetCode, assetIssuer: b.assetIssuer, balance: b.balance })),
      signers: [{ key: account.id, weight: account.masterWeight }, ...signers.filter((s) => s.accountId === account.id).map((s) => ({ key: s.signerKey, weight: s.weight }))],
      thresholds: { low: account.lowThreshold, medium: account.medThreshold, high: account.highThreshold },
    }));
  }
}
