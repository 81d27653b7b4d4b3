import type { MikroORM } from '@mikro-orm/postgresql';
import { Keypair } from '@stellar/stellar-sdk';
import { Account, AccountSigner } from '../../src/modules/accounts/accounts.entity';
import { AccountType } from '../../src/core/account-type';
import { OutboxMessage } from '../../src/modules/outbox/outbox.entity';
import type { TestApp } from './app';

export { AccountType };

let sequence = 0;
const unique = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

/** A platform created through POST /platforms with the master seed. */
export async function createPlatform(t: TestApp, attributes: Record<string, unknown> = {}): Promise<Keypair> {
  const platform = Keypair.random();
  const res = await t.client.post('/platforms', {
    data: { type: 'accounts', id: platform.publicKey(), attributes: { seed: t.master.secret(), first_name: 'Platform', ...attributes } },
  });
  if (res.status !== 201) throw new Error(`platform creation failed: ${res.status} ${res.text}`);
  return platform;
}

export interface CreatedAccount {
  keypair: Keypair;
  id: string;
  email: string;
  password: string;
  body: any;
}

export interface AccountOptions {
  type?: 'user' | 'admin' | 'broker';
  /** Who signs the creation: the platform (default for admins and brokers) or the new account itself. */
  signer?: Keypair | 'self';
  attributes?: Record<string, unknown>;
}

/** An account created through POST /accounts. */
export async function createAccount(t: TestApp, platform: Keypair, opts: AccountOptions = {}): Promise<CreatedAccount> {
  const keypair = Keypair.random();
  const type = opts.type ?? 'user';
  const email = `${type}-${unique()}@example.com`;
  const password = 'correct horse battery';
  const signer = opts.signer === 'self' || (opts.signer === undefined && type === 'user') ? keypair : (opts.signer as Keypair | undefined) ?? platform;
  const res = await t.client.as(signer).post('/accounts', {
    data: {
      type: 'accounts',
      id: keypair.publicKey(),
      attributes: {
        account_type: type,
        platform_id: platform.publicKey(),
        first_name: 'Ann',
        last_name: 'Lee',
        email,
        password,
        ...(type === 'broker' ? { broker_cities: ['Tbilisi'] } : {}),
        ...opts.attributes,
      },
    },
  });
  if (res.status !== 201) throw new Error(`account creation failed: ${res.status} ${res.text}`);
  return { keypair, id: keypair.publicKey(), email, password, body: res.body };
}

/** The token of the newest outbox message to a recipient (email address or phone number). */
export async function lastToken(orm: MikroORM, recipient: string): Promise<string> {
  const [message] = await orm.em.fork().find(OutboxMessage, { recipient }, { orderBy: { id: 'desc' }, limit: 1 });
  const token = /^Token: (\S+)$/m.exec(message?.body ?? '')?.[1];
  if (!token) throw new Error(`no token sent to ${recipient}`);
  return token;
}

/** An account row with a fresh keypair, for tests of the authentication layer below the API. */
export async function insertAccount(orm: MikroORM, accountType: AccountType, platformId: string | null = null): Promise<Keypair> {
  const keypair = Keypair.random();
  const em = orm.em.fork();
  em.create(Account, { id: keypair.publicKey(), accountType, platformId: platformId ?? keypair.publicKey() });
  await em.flush();
  return keypair;
}

export async function insertSigner(orm: MikroORM, accountId: string, signer: Keypair): Promise<void> {
  const em = orm.em.fork();
  em.create(AccountSigner, { accountId, signerKey: signer.publicKey() });
  await em.flush();
}

/** An account id of the same shape as `id` that no account has: its last character changed. */
export const absentAccountId = (id: string) => id.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
