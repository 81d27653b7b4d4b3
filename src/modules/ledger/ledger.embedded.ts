import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { StrKey, xdr, type Transaction } from '@stellar/stellar-sdk';
import { verifyEd25519 } from '../../auth/keys';
import { LedgerClose, LedgerTransaction } from './ledger.entity';
import { applyOperation, baseAddress, entriesOf, otherAccounts, supported, thresholdOf, type Threshold } from './ledger.operations';
import { LedgerState, type EntryKey } from './ledger.state';
import { opSuccess, transactionMeta, transactionResult, type EntryChange } from './ledger.xdr';

/** What a transaction that reached a ledger answers with. */
export interface SubmittedTransaction {
  envelopeXdr: string;
  hash: string;
  ledger: number;
  resultXdr: string;
  resultMetaXdr: string;
}

/** Thrown inside the database transaction, so that a rejected transaction changes nothing. */
export class TransactionRejected extends Error {
  constructor(readonly result: xdr.TransactionResult) {
    super(`transaction rejected: ${result.result().switch().name}`);
  }
}

const reject = (result: xdr.TransactionResultResult): never => {
  throw new TransactionRejected(transactionResult(result));
};

/** The envelope's signatures, each verified at most once per key and marked when it counted. */
class Signatures {
  private readonly used: boolean[];
  private readonly verified = new Map<string, boolean>();

  constructor(
    private readonly signatures: xdr.DecoratedSignature[],
    private readonly hash: Buffer,
  ) {
    this.used = signatures.map(() => false);
  }

  /** Whether the signers of `weights` that signed reach `needed` (and at least one signed). */
  reach(weights: { key: string; weight: number }[], needed: number): boolean {
    let total = 0;
    let any = false;
    for (const { key, weight } of weights) {
      if (weight <= 0) continue;
      const index = this.signedBy(key);
      if (index < 0) continue;
      this.used[index] = true;
      total += weight;
      any = true;
    }
    return any && total >= needed;
  }

  allUsed(): boolean {
    return this.used.every(Boolean);
  }

  private signedBy(key: string): number {
    const hint = StrKey.decodeEd25519PublicKey(key).subarray(-4);
    return this.signatures.findIndex((s, i) => {
      if (!s.hint().equals(hint)) return false;
      const memo = `${i}:${key}`;
      if (!this.verified.has(memo)) this.verified.set(memo, verifyEd25519(key, this.hash, s.signature()));
      return this.verified.get(memo);
    });
  }
}

/**
 * The embedded ledger: checks a transaction the way stellar-core does
 * (operations, time bounds, sequence number, signatures against thresholds), applies it to the
 * locked accounts and closes a ledger holding it. No fees are charged.
 */
export class EmbeddedLedger {
  async apply(em: EntityManager, tx: Transaction): Promise<SubmittedTransaction> {
    const now = BigInt(Math.floor(Date.now() / 1000));
    if (tx.operations.length === 0) reject(xdr.TransactionResultResult.txMissingOperation());
    if (tx.ledgerBounds || tx.minAccountSequence || tx.minAccountSequenceAge || tx.minAccountSequenceLedgerGap || tx.extraSigners?.length) {
      reject(xdr.TransactionResultResult.txNotSupported());
    }
    if (tx.timeBounds && BigInt(tx.timeBounds.minTime) > now) reject(xdr.TransactionResultResult.txTooEarly());
    if (tx.timeBounds && tx.timeBounds.maxTime !== '0' && BigInt(tx.timeBounds.maxTime) < now) reject(xdr.TransactionResultResult.txTooLate());

    const sourceId = baseAddress(tx.source);
    const opSources = tx.operations.map((op) => (op.source ? baseAddress(op.source) : sourceId));
    const state = new LedgerState(em);
    await state.lock([sourceId, ...opSources, ...tx.operations.flatMap(otherAccounts)]);
    const source = state.account(sourceId);
    if (!source) return reject(xdr.TransactionResultResult.txNoAccount());
    if (BigInt(tx.sequence) !== source.sequence + 1n) reject(xdr.TransactionResultResult.txBadSeq());

    const signatures = new Signatures(tx.signatures, tx.hash());
    const needed = (id: string, level: Threshold) => {
      const a = state.account(id);
      return a ? { low: a.lowThreshold, medium: a.medThreshold, high: a.highThreshold }[level] : 0;
    };
    if (!signatures.reach(state.signersOf(sourceId), needed(sourceId, 'low'))) reject(xdr.TransactionResultResult.txBadAuth());

    const ops = tx.operations.map(supported);
    const results = ops.map((op, i) => {
      if (!op) return xdr.OperationResult.opNotSupported();
      if (!state.account(opSources[i])) return xdr.OperationResult.opNoAccount();
      if (!signatures.reach(state.signersOf(opSources[i]), needed(opSources[i], thresholdOf(op)))) return xdr.OperationResult.opBadAuth();
      return opSuccess[op.type]();
    });
    if (results.some((r) => r.switch().name !== 'opInner')) reject(xdr.TransactionResultResult.txFailed(results));
    if (!signatures.allUsed()) reject(xdr.TransactionResultResult.txBadAuthExtra());

    const sourceBefore = state.snapshot(['account', sourceId]);
    source.sequence = BigInt(tx.sequence);
    const txChanges: EntryChange[] = [{ before: sourceBefore, after: state.snapshot(['account', sourceId]) }];
    const opChanges: EntryChange[][] = [];
    for (const [i, op] of ops.entries()) {
      if (!op) continue;
      const keys = unique(entriesOf(op, opSources[i]));
      const before = keys.map((k) => state.snapshot(k));
      const { ok, result } = await applyOperation(state, op, opSources[i]);
      results[i] = result;
      if (!ok) reject(xdr.TransactionResultResult.txFailed(results));
      opChanges.push(keys.map((k, j) => ({ before: before[j], after: state.snapshot(k) })));
    }
    return this.close(em, state, tx, { results, txChanges, opChanges });
  }

  /** Closes a ledger with the transaction as its only member and records the transaction. */
  private async close(em: EntityManager, state: LedgerState, tx: Transaction, outcome: { results: xdr.OperationResult[]; txChanges: EntryChange[]; opChanges: EntryChange[][] }) {
    const hash = tx.hash();
    const ledger = em.create(LedgerClose, { txSetHash: createHash('sha256').update(hash).digest('hex'), txCount: 1 });
    await em.flush();
    const changed = [outcome.txChanges, ...outcome.opChanges].flat().map((c) => (c.after ?? c.before)?.id);
    state.touch(changed.filter((id): id is string => id !== undefined), ledger.sequence);
    const submitted: SubmittedTransaction = {
      envelopeXdr: tx.toEnvelope().toXDR('base64'),
      hash: hash.toString('hex'),
      ledger: ledger.sequence,
      resultXdr: transactionResult(xdr.TransactionResultResult.txSuccess(outcome.results)).toXDR('base64'),
      resultMetaXdr: transactionMeta(outcome.txChanges, outcome.opChanges, ledger.sequence).toXDR('base64'),
    };
    em.create(LedgerTransaction, {
      hash: submitted.hash,
      ledger: ledger.sequence,
      sourceAccount: baseAddress(tx.source),
      sequence: BigInt(tx.sequence),
      envelopeXdr: submitted.envelopeXdr,
      resultXdr: submitted.resultXdr,
      resultMetaXdr: submitted.resultMetaXdr,
    });
    return submitted;
  }
}

function unique(keys: EntryKey[]): EntryKey[] {
  const seen = new Set<string>();
  return keys.filter((k) => {
    const id = JSON.stringify(k);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
