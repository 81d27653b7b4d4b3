// What other areas may use of bidlog: nothing outside this folder imports another file of it.
export { chainRound, type LogEntryRow } from './bidlog.append';
export { bearerRequestDigestOf } from './bidlog.chain';
export type { BidLogService } from './bidlog.service';
export { type ServedLog, type ServedLot, type Verification, verifyBidLog, type VerifyOptions } from './bidlog.verify';
export { type AnyReceipt, type BatchReceipt, type HashReceipt, type Receipt, encodeReceipt, isHashReceipt, receiptVersion } from './tlog.receipt';
export { appendCtes } from './tlog.store';
export { holdKeyPeriod } from './tlog.signing';
export { KeyRecordingBlocked, recordLogKey } from './tlog.keys';
export type { TransparencyLog } from './tlog.service';
export {
  type KeyPeriod,
  type ServedLeaf,
  type SeenCheckpoint,
  checkLotLeaves,
  checkpointPeriodProblem,
  checkpointSigners,
  consistencyProblem,
  inclusionProblem,
  keyHistoryProblem,
  receiptPeriodProblem,
  receiptProblem,
  receiptSigner,
  replacedKeyProblem,
  rotationLeafProblem,
  servedLeafProblem,
  signersAfter,
  trustedCheckpoint,
  unnamedKeysNote,
} from './tlog.verify';
export { leafHash } from './tlog.merkle';
export { type AnchorTransaction, anchorProblem } from './tlog.anchor';
export { cosignatureLine, cosignedAt, parseWitnessKey, type WitnessKey, witnessVkey } from './tlog.cosign';
export { type Checkpoint, parseNote } from './tlog.note';
