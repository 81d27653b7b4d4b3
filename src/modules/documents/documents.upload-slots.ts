import { DomainError } from '../../core/errors';

/**
 * The uploads an instance receives at once. Each is held in memory until it is stored, up to
 * `UPLOAD_LIMIT` bytes, so their number bounds the memory uploads can take: one account sending 60
 * uploads of 20 MB at once took the service to 1.86 GB, uploads refused for their attributes or
 * the quota included (they are read whole first). An account holds at most `perAccount` of them
 * (`UPLOADS_PER_ACCOUNT`), so that one account cannot take every slot. Refusals come before a
 * byte of the body is read.
 */
export class UploadSlots {
  private taken = 0;
  private readonly byAccount = new Map<string, number>();

  constructor(
    private readonly total: number,
    private readonly perAccount: number,
  ) {}

  /** Takes a slot for the account's upload; the function answered gives it back (once). */
  take(accountId: string): () => void {
    const mine = this.byAccount.get(accountId) ?? 0;
    if (mine >= this.perAccount) {
      throw busy(DomainError.of('rate_limited', 'uploads_in_progress', `this account is sending ${mine} uploads already, as many as it may at once (UPLOADS_PER_ACCOUNT): send this one when one of them is answered`));
    }
    if (this.taken >= this.total) {
      throw busy(DomainError.of('unavailable', 'uploads_busy', `the service is receiving as many uploads as it holds at once (UPLOADS_AT_ONCE, ${this.total}): send it again in a moment`));
    }
    this.taken += 1;
    this.byAccount.set(accountId, mine + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.taken -= 1;
      const left = (this.byAccount.get(accountId) ?? 1) - 1;
      if (left) this.byAccount.set(accountId, left);
      else this.byAccount.delete(accountId);
    };
  }
}

/** A slot frees as soon as an upload is answered: the client may try again at once. */
function busy(error: DomainError): DomainError {
  error.retryAfter = 1;
  return error;
}
