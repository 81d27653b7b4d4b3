import type { MikroORM } from '@mikro-orm/postgresql';
import { Keypair } from '@stellar/stellar-sdk';
import { Account, AccountSigner, AccountType } from '../../src/modules/accounts/accounts.entity';

/** An account row with a fresh keypair; the identity issue's API will replace direct inserts. */
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

export { AccountType };
