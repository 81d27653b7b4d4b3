import type { EntityManager } from '@mikro-orm/postgresql';
import { FeeBumpTransaction, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk';
import type { RequestContext } from '../../core/context';
import { loggable } from '../../core/loggable';
import { logger } from '../../core/logger';
import { inTransaction } from '../../core/transaction';
import type { DepositPayments } from './ledger.deposits';
import { TransactionRejected, type SubmittedTransaction } from './ledger.embedded';
import type { HorizonRelay } from './ledger.horizon';
import { relayOutbox } from './ledger.outbox';

/** How many rows one run of the relay job takes on; the rest wait for the next run. */
const ROWS_PER_RUN = 100;
/** Horizon may show a transaction some seconds after its ledger closed: a missing one is given up only this long after its time bounds. */
const INGESTION_MARGIN_MS = 5 * 60_000;

const innerOf = (tx: Transaction | FeeBumpTransaction): Transaction => (tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx);

/** Whether the network can no longer take the transaction: its time bounds passed long enough ago. */
function expired(tx: Transaction, now: number): boolean {
  const maxTime = Number(tx.timeBounds?.maxTime ?? 0);
  return maxTime > 0 && maxTime * 1000 + INGESTION_MARGIN_MS < now;
}

/**
 * Transactions relayed to Horizon (`HORIZON_URL`). Horizon's acceptance cannot be taken back, so
 * each submission is recorded first (ledger_relay_outbox) and completed afterwards: once Horizon
 * accepts, the deposit it pays is written; when that write fails, or Horizon's answer is lost,
 * the relay job (`completeDue`) completes the row later, and the caller is never told that a
 * payment which went through failed.
 */
export class RelayedSubmissions {
  constructor(
    private readonly horizon: HorizonRelay,
    private readonly networkPassphrase: string,
    private readonly payments: DepositPayments,
    /** How long a pending row is left to its request before the job asks Horizon about it. */
    private readonly pendingForMs: number,
  ) {}

  async submit(ctx: Pick<RequestContext, 'em'>, envelope: Transaction | FeeBumpTransaction): Promise<SubmittedTransaction> {
    const hash = envelope.hash().toString('hex');
    const id = await relayOutbox.record(ctx.em, hash, envelope.toEnvelope().toXDR('base64'));
    // Should marking the row fail, it stays pending and the job settles it by asking Horizon.
    const unmarked = (err: unknown) => logger.warn({ err: loggable(err), hash }, 'marking a relayed transaction failed; the relay job settles it');
    let submitted: SubmittedTransaction;
    try {
      submitted = await this.horizon.submit(envelope);
    } catch (err) {
      // Refused, nothing happened; any other failure leaves the row pending for the job to ask Horizon.
      if (err instanceof TransactionRejected) await relayOutbox.rejected(ctx.em, id).catch(unmarked);
      throw err;
    }
    try {
      await this.complete(ctx.em, id, innerOf(envelope));
    } catch (err) {
      logger.warn({ err: loggable(err), hash }, 'the deposit write of an accepted relayed transaction failed; the relay job completes it');
      await relayOutbox.accepted(ctx.em, id).catch(unmarked);
    }
    return submitted;
  }

  /** The relay job: completes accepted rows, and settles pending ones by asking Horizon. Answers how many it completed. */
  async completeDue(em: EntityManager): Promise<number> {
    const now = Date.now();
    let completed = 0;
    for (const row of await relayOutbox.due(em, new Date(now - this.pendingForMs), ROWS_PER_RUN)) {
      try {
        const tx = innerOf(TransactionBuilder.fromXDR(row.envelopeXdr, this.networkPassphrase));
        if (row.state === 'pending') {
          const outcome = await this.horizon.outcome(row.hash);
          if (outcome === 'failed' || (outcome === 'missing' && expired(tx, now))) await relayOutbox.rejected(em, row.id);
          if (outcome !== 'successful') continue;
        }
        if (await this.complete(em, row.id, tx)) completed++;
      } catch (err) {
        logger.warn({ err: loggable(err), hash: row.hash }, 'completing a relayed transaction failed; the next run retries');
      }
    }
    return completed;
  }

  /** Writes the deposit the transaction pays, unless the row was completed already. */
  private complete(em: EntityManager, id: string, tx: Transaction): Promise<boolean> {
    return inTransaction({ em }, async (tem, scope) => {
      if (!(await relayOutbox.claim(tem, id))) return false;
      await this.payments.pay(tem, scope, tx);
      return true;
    });
  }
}
