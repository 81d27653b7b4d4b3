import { sql } from '../../db/sql';
import { rulesOf, type AuctionRules, type StoredRules } from './rules.model';

/** A lot's rules as the bid round sees them: its rules version, and the seconds soft close added to its end so far. */
export type LotRules = AuctionRules & { extendedSeconds: number };

/**
 * The `rules` column of a select from `lots`: the rules version the lot was created with, read in
 * the same statement (no extra round trip), and not looked up at all for a lot without rules.
 */
export const lotRulesColumn = sql`case when lots.rules_version is null then null
  else json_build_object('rules', (select r.rules from platform_rules r where r.platform_id = lots.publisher_id and r.version = lots.rules_version),
                         'extended_seconds', lots.extended_seconds) end as rules`;

/** The `rules` column as read. */
export function lotRulesOf(value: unknown): LotRules | null {
  if (!value) return null;
  const { rules, extended_seconds } = value as { rules: StoredRules; extended_seconds: number };
  return { ...rulesOf(rules), extendedSeconds: extended_seconds };
}
