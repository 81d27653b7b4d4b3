import type { EntityManager } from '@mikro-orm/postgresql';
import { KeyedBatcher, type Settled } from '../core/batcher';
import type { AccountType, BlacklistState } from '../core/account-type';
import { unavailableAfter } from '../db/faults';
import { alone, rawQuery, type Statement } from '../db/raw';

/** What authentication reads of an account, with its blacklist state and own key's weight. */
export interface AccountRow {
  id: string;
  accountType: AccountType;
  platformId: string | null;
  trustingPlatforms: string[];
  blacklist: BlacklistState | null;
  /** The ledger weight of the account's own key; 0 when a setOptions disabled it. */
  ownKeyWeight: number;
}

/** A write's signature to record (replay protection); `claimed` once the attempt was made. */
export interface Claim {
  digest: Buffer;
  expiresAt: Date;
  claimed: boolean | null;
}

interface Read {
  em: EntityManager;
  id: string;
  claim: Claim | null;
}

/**
 * A statement that records signatures, in a transaction whose commit does not wait for the WAL
 * flush: the records survive a crash but for its last moments (Migration20261122110000ReplayLogged)
 * and cost a signed write no flush of its own. Its answer is the fourth of the five.
 */
const claiming = (statement: Statement): Statement[] => alone([{ text: 'set local synchronous_commit = off' }, statement]);
const CLAIM_RESULT = 3;

/** Reads that arrive while one runs are sent together: enough for a burst of signed requests. */
const READS_PER_STATEMENT = 64;

/**
 * The account reads of authentication, each with its signature's replay claim. The reads that
 * arrive while one is running go to the database together as the next statement, so a burst of
 * signed requests costs about one round trip instead of one each. A signature claimed twice in
 * one statement (a replay racing its original) counts once, for the first.
 */
export class AccountReads {
  // A read that found the database out of reach answers the reads waiting behind it at once.
  private readonly batcher = new KeyedBatcher<Read, AccountRow | null>((_key, reads) => this.run(reads), READS_PER_STATEMENT, unavailableAfter);

  read(em: EntityManager, id: string, claim: Claim | null): Promise<AccountRow | null> {
    return this.batcher.submit('accounts', { em, id, claim });
  }

  private async run(reads: Read[]): Promise<Settled<AccountRow | null>[]> {
    const results = await rawQuery(
      reads[0].em,
      ...claiming({
        text: `with input as (
                 select * from unnest(array[?]::int[], array[?]::text[], array[?]::bytea[], array[?]::timestamptz[]) as i(n, id, digest, expires)
               ), claimed as (
                 insert into seen_signatures (digest, expires_at)
                 select distinct on (digest) digest, expires from input where digest is not null order by digest, n
                 on conflict (digest) do nothing returning digest
               )
               select i.n, c.digest is not null and i.n = (select min(j.n) from input j where j.digest = i.digest) as claimed,
                      a.id, a.account_type, a.platform_id, a.trusting_platforms, b.state as blacklist_state, coalesce(l.master_weight, 1) as master_weight
                 from input i
                 left join claimed c on c.digest = i.digest
                 left join accounts a on a.id = i.id
                 left join blacklist b on b.account_id = a.id
                 left join ledger_accounts l on l.id = a.id
                order by i.n`,
        params: [reads.map((_, n) => n), reads.map((r) => r.id), reads.map((r) => r.claim?.digest ?? null), reads.map((r) => r.claim?.expiresAt ?? null)],
      }),
    );
    return results[CLAIM_RESULT].rows.map((row, n) => {
      const { claim } = reads[n];
      if (claim) claim.claimed = row.claimed === true;
      return { ok: true, value: row.id === null ? null : accountRowOf(row) };
    });
  }
}

function accountRowOf(row: Record<string, unknown>): AccountRow {
  return {
    id: row.id as string,
    accountType: row.account_type as AccountType,
    platformId: row.platform_id as string | null,
    trustingPlatforms: (row.trusting_platforms as string[] | null) ?? [],
    blacklist: (row.blacklist_state as BlacklistState | null) ?? null,
    ownKeyWeight: Number(row.master_weight),
  };
}
