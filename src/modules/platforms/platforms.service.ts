import { Keypair, StrKey } from '@stellar/stellar-sdk';
import { z } from 'zod';
import type { RequestContext } from '../../core/context';
import { conflict, forbidden, invalid, type ErrorSource } from '../../core/errors';
import { uniquely } from '../../core/unique';
import { validateAttributes, type ResourceInput } from '../../core/validate';
import { Account, AccountSigner, AccountType } from '../accounts/accounts.entity';
import { accountId, profileAttributes } from '../accounts/accounts.input';
import type { LedgerAccounts } from '../ledger/ledger.port';
import type { ReferenceService } from '../reference/reference.service';

export class PlatformsService {
  private readonly createSchema;

  constructor(
    private readonly masterAccountId: string,
    private readonly ledger: LedgerAccounts,
    reference: ReferenceService,
  ) {
    const profile = profileAttributes(reference);
    this.createSchema = z.object({
      seed: z.string().min(1),
      first_name: profile.first_name.optional(),
      last_name: profile.last_name.optional(),
      email: z.string().trim().max(254).email('must be an email address').optional(),
      phone_number: z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be in international format').optional(),
      avatar_link: profile.avatar_link.optional(),
      country: profile.country.optional(),
      city: profile.city.optional(),
      address: profile.address.optional(),
      company: profile.company.optional(),
    });
  }

  /** Makes sure the master account (type 1) and its ledger account exist; called once at start. */
  async ensureMasterAccount(ctx: Pick<RequestContext, 'em'>): Promise<void> {
    await ctx.em.transactional(async (em) => {
      await em
        .getConnection()
        .execute(
          'insert into accounts (id, account_type, email_verified, phone_verified) values (?, ?, true, true) on conflict (id) do nothing',
          [this.masterAccountId, AccountType.Master],
          'run',
          em.getTransactionContext(),
        );
      await this.ledger.open(em, this.masterAccountId);
    });
  }

  /**
   * POST /platforms: the seed authenticates; it must be the master key or one of its signers.
   * A platform is its own platform and is created verified.
   */
  async createPlatform(ctx: RequestContext, input: ResourceInput): Promise<Account> {
    const id = accountId.safeParse(input.id);
    if (!id.success) throw invalid('invalid_field', 'data.id must be an account id (G…)', { pointer: '/data/id' });
    const attrs = validateAttributes(this.createSchema, input.attributes);
    let signer: string;
    try {
      signer = Keypair.fromSecret(attrs.seed).publicKey();
    } catch {
      throw invalid('invalid_seed', 'seed is not a secret key (S…)', { attribute: 'seed' });
    }
    const authorised =
      signer === this.masterAccountId || (await ctx.em.count(AccountSigner, { accountId: this.masterAccountId, signerKey: signer })) > 0;
    if (!authorised) throw forbidden('seed_not_authorized', 'the seed is neither the master key nor one of its signers');

    const conflictOfId = () => conflict('account_exists', 'an account with this id exists', { pointer: '/data/id' });
    return uniquely(() => ctx.em.transactional(async (em) => {
      if (await em.count(Account, { id: id.data })) throw conflictOfId();
      const platform = em.create(Account, {
        id: id.data,
        accountType: AccountType.Platform,
        platformId: id.data,
        firstName: attrs.first_name ?? null,
        lastName: attrs.last_name ?? null,
        email: attrs.email ?? null,
        phoneNumber: attrs.phone_number ?? null,
        avatarLink: attrs.avatar_link ?? null,
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
  async addMasterSigner(ctx: RequestContext, signerKey: string, source?: ErrorSource): Promise<void> {
    if (!ctx.local) throw forbidden('local_only', 'master signers can be added only from the local machine');
    if (!StrKey.isValidEd25519PublicKey(signerKey)) {
      throw invalid('invalid_public_key', 'the signer must be an ed25519 public key (G…)', source);
    }
    await ctx.em.upsert(AccountSigner, { accountId: this.masterAccountId, signerKey, weight: 1 }, { onConflictAction: 'ignore' });
  }
}
