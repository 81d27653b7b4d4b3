import { Keypair, StrKey } from '@stellar/stellar-sdk';
import type { RequestContext } from '../../core/context';
import { conflict, forbidden, invalid } from '../../core/errors';
import { uniquely } from '../../core/unique';
import { validateInput, type Untrusted } from '../../core/validate';
import { inTransaction } from '../../core/transaction';
import { changedBy } from '../../db/query';
import { sql } from '../../db/sql';
import { Account, AccountSigner, accountId } from '../accounts';
import { AccountType } from '../../core/account-type';
import type { LedgerAccounts } from '../ledger';
import type { ReferenceService } from '../reference';
import { createPlatformInput, type CreatePlatformInput, type MasterSignerInput } from './platforms.input';

export class PlatformsService {
  private readonly createSchema;

  constructor(
    private readonly masterAccountId: string,
    private readonly ledger: LedgerAccounts,
    reference: ReferenceService,
  ) {
    this.createSchema = createPlatformInput(reference);
  }

  /** Makes sure the master account (type 1) and its ledger account exist; called once at start. */
  async ensureMasterAccount(ctx: Pick<RequestContext, 'em'>): Promise<void> {
    await inTransaction(ctx, async (em) => {
      await changedBy(em, sql`insert into accounts (id, account_type, email_verified, phone_verified) values (${this.masterAccountId}, ${AccountType.Master}, true, true) on conflict (id) do nothing`);
      await this.ledger.open(em, this.masterAccountId);
    });
  }

  /**
   * POST /platforms: the seed authenticates; it must be the master key or one of its signers.
   * A platform is its own platform and is created verified.
   */
  async createPlatform(ctx: RequestContext, input: Untrusted<CreatePlatformInput>): Promise<Account> {
    // A malformed key is the one fault reported: the rest of the input is not looked at.
    if (!accountId.safeParse(input.id).success) throw invalid('invalid_field', 'id must be an account id (G…)', { field: 'id' });
    const attrs = validateInput(this.createSchema, input);
    let signer: string;
    try {
      signer = Keypair.fromSecret(attrs.seed).publicKey();
    } catch {
      throw invalid('invalid_seed', 'seed is not a secret key (S…)', { field: 'seed' });
    }
    const authorised =
      signer === this.masterAccountId || (await ctx.em.count(AccountSigner, { accountId: this.masterAccountId, signerKey: signer })) > 0;
    if (!authorised) throw forbidden('seed_not_authorized', 'the seed is neither the master key nor one of its signers');

    const conflictOfId = () => conflict('account_exists', 'an account with this id exists', { field: 'id' });
    return uniquely(() => inTransaction(ctx, async (em) => {
      if (await em.count(Account, { id: attrs.id })) throw conflictOfId();
      const platform = em.create(Account, {
        id: attrs.id,
        accountType: AccountType.Platform,
        platformId: attrs.id,
        firstName: attrs.firstName ?? null,
        lastName: attrs.lastName ?? null,
        email: attrs.email ?? null,
        phoneNumber: attrs.phoneNumber ?? null,
        avatarLink: attrs.avatarLink ?? null,
        country: attrs.country ?? null,
        city: attrs.city ?? null,
        address: attrs.address ?? null,
        company: attrs.company ?? null,
        emailVerified: true,
        phoneVerified: true,
      });
      await em.flush();
      await this.ledger.open(em, platform.id);
      return platform;
    }), conflictOfId);
  }

  /** POST /master/signers: loopback callers only; adding a key twice is not an error. */
  async addMasterSigner(ctx: RequestContext, { publicKey }: MasterSignerInput): Promise<void> {
    if (!ctx.local) throw forbidden('local_only', 'master signers can be added only from the local machine');
    if (!StrKey.isValidEd25519PublicKey(publicKey)) {
      throw invalid('invalid_public_key', 'the signer must be an ed25519 public key (G…)', { field: 'publicKey' });
    }
    await ctx.em.upsert(AccountSigner, { accountId: this.masterAccountId, signerKey: publicKey, weight: 1 }, { onConflictAction: 'ignore' });
  }
}
