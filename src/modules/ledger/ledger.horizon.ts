import { Horizon, NotFoundError, xdr, type Account, type FeeBumpTransaction, type Transaction } from '@stellar/stellar-sdk';
import { DomainError } from '../../core/errors';
import { TransactionRejected, type SubmittedTransaction } from './ledger.embedded';
import type { LedgerTransactionView } from './ledger.service';

interface HorizonFailure {
  status?: number;
  extras?: { result_xdr?: string };
}

/** Relays transactions to a Stellar network through Horizon (`HORIZON_URL`) instead of the embedded ledger. */
export class HorizonRelay {
  private readonly server: Horizon.Server;

  /**
   * `answerMs` bounds a read of Horizon (HORIZON_ANSWER_SECONDS). Without a bound, one request that
   * Horizon accepts and never answers holds its caller forever: the anchor job, in its database
   * transaction, anchored nothing more until the process restarted. Submissions keep the SDK's own bound (60 s).
   */
  constructor(url: string, answerMs: number) {
    this.server = new Horizon.Server(url, { allowHttp: url.startsWith('http:') });
    this.server.httpClient.defaults.timeout = answerMs;
  }

  /** Horizon's answer as ours; a transaction the network refused is a TransactionRejected. */
  async submit(tx: Transaction | FeeBumpTransaction): Promise<SubmittedTransaction> {
    let response: Horizon.HorizonApi.SubmitTransactionResponse;
    try {
      // The memo check would look up every destination first; deposit memos are ours to read.
      response = await this.server.submitTransaction(tx, { skipMemoRequiredCheck: true });
    } catch (err) {
      throw this.failure(err);
    }
    return {
      envelopeXdr: response.envelope_xdr,
      hash: response.hash,
      ledger: response.ledger,
      resultXdr: response.result_xdr,
      resultMetaXdr: response.result_meta_xdr ?? '',
    };
  }

  /** What the network made of a transaction: in a ledger (successful or not) or not found there. */
  async outcome(hash: string): Promise<'successful' | 'failed' | 'missing'> {
    try {
      const record = await this.server.transactions().transaction(hash).call();
      return record.successful ? 'successful' : 'failed';
    } catch (err) {
      if (err instanceof NotFoundError) return 'missing';
      throw err;
    }
  }

  /** An account as the network has it now: its sequence is the next transaction's base. */
  async account(id: string): Promise<Account> {
    try {
      return await this.server.loadAccount(id);
    } catch (err) {
      throw this.failure(err);
    }
  }

  /** A transaction of the network, or null when Horizon knows none with this hash. */
  async transaction(hash: string): Promise<LedgerTransactionView | null> {
    try {
      const r = await this.server.transactions().transaction(hash).call();
      return { hash: r.hash, ledger: r.ledger_attr, sourceAccount: r.source_account, envelopeXdr: r.envelope_xdr, resultXdr: r.result_xdr, successful: r.successful };
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw this.failure(err);
    }
  }

  private failure(err: unknown): Error {
    const response = (err as { response?: HorizonFailure & { data?: HorizonFailure } }).response;
    const body = response?.data ?? response;
    const resultXdr = body?.extras?.result_xdr;
    if (resultXdr) {
      try {
        return new TransactionRejected(xdr.TransactionResult.fromXDR(resultXdr, 'base64'));
      } catch {
        // an undecodable result is the gateway's fault, reported below
      }
    }
    const status = body?.status ?? response?.status;
    return DomainError.of('bad_gateway', 'ledger_unavailable', `the Stellar network did not accept the submission${status ? ` (Horizon answered ${status})` : ''}`);
  }
}
