import { Entity, Enum, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { AccountType, type BlacklistState } from '../../core/account-type';

@Entity({ tableName: 'accounts' })
export class Account {
  [OptionalProps]?:
    | 'platformId' | 'firstName' | 'lastName' | 'email' | 'emailVerified' | 'phoneNumber' | 'phoneVerified'
    | 'avatarLink' | 'country' | 'countryId' | 'cityId' | 'city' | 'region' | 'address' | 'company'
    | 'currency' | 'locale' | 'brokerCities' | 'socialTokenA' | 'socialTokenB' | 'trustingPlatforms'
    | 'flags' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'string', length: 56 })
  id!: string;

  @Enum({ items: () => AccountType, type: 'smallint' })
  accountType!: AccountType;

  @Property({ type: 'string', length: 56, nullable: true })
  platformId: string | null = null;

  @Property({ type: 'string', length: 30, nullable: true })
  firstName: string | null = null;

  @Property({ type: 'string', length: 30, nullable: true })
  lastName: string | null = null;

  @Property({ type: 'string', length: 254, nullable: true })
  email: string | null = null;

  @Property({ type: 'boolean' })
  emailVerified = false;

  @Property({ type: 'string', length: 20, nullable: true })
  phoneNumber: string | null = null;

  @Property({ type: 'boolean' })
  phoneVerified = false;

  @Property({ type: 'text', nullable: true })
  avatarLink: string | null = null;

  @Property({ type: 'string', length: 3, nullable: true })
  country: string | null = null;

  @Property({ type: 'integer', nullable: true })
  countryId: number | null = null;

  @Property({ type: 'integer', nullable: true })
  cityId: number | null = null;

  @Property({ type: 'string', length: 30, nullable: true })
  city: string | null = null;

  @Property({ type: 'string', length: 30, nullable: true })
  region: string | null = null;

  @Property({ type: 'string', length: 100, nullable: true })
  address: string | null = null;

  @Property({ type: 'string', length: 30, nullable: true })
  company: string | null = null;

  @Property({ type: 'string', length: 3, nullable: true })
  currency: string | null = null;

  @Property({ type: 'string', length: 2, nullable: true })
  locale: string | null = null;

  @Property({ type: 'text[]' })
  brokerCities: string[] = [];

  @Property({ type: 'text', nullable: true })
  socialTokenA: string | null = null;

  @Property({ type: 'text', nullable: true })
  socialTokenB: string | null = null;

  @Property({ type: 'text[]' })
  trustingPlatforms: string[] = [];

  @Property({ type: 'integer' })
  flags = 0;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** A public key allowed to sign for an account (master signers, ledger setOptions signers). */
@Entity({ tableName: 'account_signers' })
export class AccountSigner {
  [OptionalProps]?: 'weight' | 'createdAt';

  @PrimaryKey({ type: 'string', length: 56 })
  accountId!: string;

  @PrimaryKey({ type: 'string', length: 56 })
  signerKey!: string;

  @Property({ type: 'smallint' })
  weight = 1;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}

@Entity({ tableName: 'blacklist' })
export class BlacklistEntry {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'string', length: 56 })
  accountId!: string;

  @Property({ type: 'string', length: 10 })
  state!: BlacklistState;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
