import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { changedBy } from '../../db/query';
import { sql } from '../../db/sql';
import { AccountSigner } from '../accounts';
import { LedgerAccount, LedgerBalance, LedgerData } from './ledger.entity';

/** A credit asset (the embedded ledger has no trustlines: a balance row is created on receipt). */
export interface AssetRef {
  code: string;
  issuer: string;
}

export interface SignerWeight {
  key: string;
  weight: number;
}

/** One ledger entry as it was at a moment, turned into XDR once the ledger's number is known. */
export type Snapshot =
  | {
      kind: 'account';
      id: string;
      sequence: bigint;
      thresholds: [number, number, number, number];
      signers: SignerWeight[];
      subEntries: number;
      lastModified: number;
    }
  | { kind: 'trustline'; id: string; asset: AssetRef; balance: bigint; lastModified: number }
  | { kind: 'data'; id: string; name: string; value: Buffer; lastModified: number };

export type EntryKey = ['account', string] | ['trustline', string, AssetRef] | ['data', string, string];

const balanceKey = (id: string, asset: AssetRef) => `${id}\u0000${asset.code}\u0000${asset.issuer}`;
const dataKey = (id: string, name: string) => `${id}\u0000${name}`;

/**
 * The ledger accounts a transaction touches, locked (FOR UPDATE, in id order, so concurrent
 * submissions cannot deadlock) and loaded with their signers, balances and data. Changes are made
 * to managed entities and reach the database when the surrounding transaction commits; a rejected
 * transaction throws and rolls all of them back.
 */
export class LedgerState {
  private readonly accounts = new Map<string, LedgerAccount>();
  private readonly signers = new Map<string, AccountSigner[]>();
  private readonly balances = new Map<string, LedgerBalance>();
  private readonly data = new Map<string, LedgerData>();

  constructor(private readonly em: EntityManager) {}

  async lock(ids: Iterable<string>): Promise<void> {
    const wanted = [...new Set(ids)].filter((id) => !this.accounts.has(id)).sort();
    if (!wanted.length) return;
    const rows = await this.em.find(LedgerAccount, { id: { $in: wanted } }, { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, refresh: true });
    const found = rows.map((r) => r.id);
    if (!found.length) return;
    const signers = await this.em.find(AccountSigner, { accountId: { $in: found } }, { orderBy: { signerKey: 'asc' }, refresh: true });
    const balances = await this.em.find(LedgerBalance, { accountId: { $in: found } }, { refresh: true });
    const data = await this.em.find(LedgerData, { accountId: { $in: found } }, { refresh: true });
    for (const row of rows) {
      this.accounts.set(row.id, row);
      this.signers.set(row.id, []);
    }
    for (const s of signers) this.signers.get(s.accountId)?.push(s);
    for (const b of balances) this.balances.set(balanceKey(b.accountId, { code: b.assetCode, issuer: b.assetIssuer }), b);
    for (const d of data) this.data.set(dataKey(d.accountId, d.name), d);
  }

  account(id: string): LedgerAccount | undefined {
    return this.accounts.get(id);
  }

  /**
   * Opens a new account (sequence 0, own key weight 1). False when it exists, also when a
   * concurrent transaction created it first (the insert waits for that one to end).
   */
  async create(id: string): Promise<boolean> {
    if (!(await changedBy(this.em, sql`insert into ledger_accounts (id, sequence) values (${id}, 0) on conflict (id) do nothing`))) return false;
    await this.lock([id]);
    return true;
  }

  /** The keys that may sign for an account: its own key (at its master weight) and its signers. */
  signersOf(id: string): SignerWeight[] {
    const account = this.accounts.get(id);
    if (!account) return [];
    const others = (this.signers.get(id) ?? []).map((s) => ({ key: s.signerKey, weight: s.weight }));
    return [{ key: id, weight: account.masterWeight }, ...others];
  }

  setSigner(id: string, key: string, weight: number): void {
    const list = this.signers.get(id) ?? [];
    const index = list.findIndex((s) => s.signerKey === key);
    if (weight === 0) {
      if (index >= 0) this.em.remove(list.splice(index, 1)[0]);
    } else if (index >= 0) {
      list[index].weight = weight;
    } else {
      list.push(this.em.create(AccountSigner, { accountId: id, signerKey: key, weight }));
      list.sort((a, b) => a.signerKey.localeCompare(b.signerKey));
    }
    this.signers.set(id, list);
  }

  signerCount(id: string): number {
    return this.signers.get(id)?.length ?? 0;
  }

  balance(id: string, asset: AssetRef): bigint | null {
    return this.balances.get(balanceKey(id, asset))?.balance ?? null;
  }

  setBalance(id: string, asset: AssetRef, value: bigint): void {
    const row = this.balances.get(balanceKey(id, asset));
    if (row) row.balance = value;
    else this.balances.set(balanceKey(id, asset), this.em.create(LedgerBalance, { accountId: id, assetCode: asset.code, assetIssuer: asset.issuer, balance: value }));
  }

  dataOf(id: string, name: string): Buffer | null {
    return this.data.get(dataKey(id, name))?.value ?? null;
  }

  setData(id: string, name: string, value: Buffer | null): void {
    const row = this.data.get(dataKey(id, name));
    if (value === null) {
      if (row) this.em.remove(row);
      this.data.delete(dataKey(id, name));
    } else if (row) {
      row.value = value;
    } else {
      this.data.set(dataKey(id, name), this.em.create(LedgerData, { accountId: id, name, value }));
    }
  }

  /** Marks the accounts of the changed entries as modified in the closing ledger. */
  touch(ids: Iterable<string>, ledger: number): void {
    for (const id of ids) {
      const account = this.accounts.get(id);
      if (account) account.lastModified = ledger;
    }
  }

  snapshot(key: EntryKey): Snapshot | null {
    const account = this.accounts.get(key[1]);
    if (!account) return null;
    const lastModified = account.lastModified;
    if (key[0] === 'trustline') {
      const balance = this.balance(key[1], key[2]);
      return balance === null ? null : { kind: 'trustline', id: key[1], asset: key[2], balance, lastModified };
    }
    if (key[0] === 'data') {
      const value = this.dataOf(key[1], key[2]);
      return value === null ? null : { kind: 'data', id: key[1], name: key[2], value, lastModified };
    }
    const prefix = `${account.id}\u0000`;
    const count = (keys: Iterable<string>) => [...keys].filter((k) => k.startsWith(prefix)).length;
    return {
      kind: 'account',
      id: account.id,
      sequence: account.sequence,
      thresholds: [account.masterWeight, account.lowThreshold, account.medThreshold, account.highThreshold],
      signers: this.signersOf(account.id).slice(1),
      subEntries: this.signerCount(account.id) + count(this.balances.keys()) + count(this.data.keys()),
      lastModified,
    };
  }
}
