import { StrKey } from '@stellar/stellar-sdk';
import type { RequestContext } from '../../core/context';
import { forbidden, invalid, type ErrorSource } from '../../core/errors';
import { AccountSigner, AccountType } from '../accounts/accounts.entity';

export class PlatformsService {
  constructor(private readonly masterAccountId: string) {}

  /** Makes sure the master account exists (type 1); called once at start. */
  async ensureMasterAccount(ctx: Pick<RequestContext, 'em'>): Promise<void> {
    await ctx.em
      .getConnection()
      .execute(
        'insert into accounts (id, account_type, email_verified, phone_verified) values (?, ?, true, true) on conflict (id) do nothing',
        [this.masterAccountId, AccountType.Master],
        'run',
      );
  }

  /** POST /master/signers: loopback callers only; adding a key twice is not an error. */
  async addMasterSigner(ctx: RequestContext, signerKey: string, source?: ErrorSource): Promise<void> {
    if (!ctx.local) throw forbidden('local_only', 'master signers can be added only from the local machine');
    if (!StrKey.isValidEd25519PublicKey(signerKey)) {
      throw invalid('invalid_public_key', 'the signer must be an ed25519 public key (G…)', source);
    }
    await ctx.em.upsert(AccountSigner, { accountId: this.masterAccountId, signerKey, weight: 1 }, { onConflictAction: 'ignore' });
  }
}
