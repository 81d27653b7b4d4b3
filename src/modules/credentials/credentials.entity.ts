import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

@Entity({ tableName: 'credentials' })
export class Credential {
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'string', length: 56 })
  accountId!: string;

  /** scrypt, in the self-describing form of `core/passwords.ts`; never returned or logged. */
  @Property({ type: 'text', hidden: true })
  passwordHash!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** One failed (or still running) sign-in attempt against a subject; see `sign-in-limit.ts`. */
@Entity({ tableName: 'sign_in_failures' })
export class SignInFailure {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  /** `account:<id>` or `email:<platform id>:<lowercased email>`. */
  @Property({ type: 'text' })
  subject!: string;

  @Property({ type: 'datetime' })
  failedAt!: Date;
}
