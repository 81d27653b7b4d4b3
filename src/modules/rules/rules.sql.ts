import { sql } from '../../db/sql';
import { rulesOf, type AuctionRules } from './rules.model';

/** A lot's rules as the bid round sees them: its rules version, and how often soft close moved its end. */
export type LotRules = AuctionRules & { extensions: number };

/**
 * The `rules` column of a select from `lots`: the rules version the lot was created with, read in
 * the same statement (no extra round trip), and not looked up at all for a lot without rules.
 */
export const lotRulesColumn = sql`case when lots.rules_version is null then null
  else json_build_object('rules', (select r.rules from platform_rules r where r.platform_id = lots.publisher_id and r.version = lots.rules_version),
                         'extensions', lots.extensions) end as rules`;

/** The `rules` column as read. */
export function lotRulesOf(value: unknown): LotRules | null {
  if (!value) return null;
  const { rules, extensions } = value as { rules: Partial<AuctionRules>; extensions: number };
  return { ...rulesOf(rules), extensions };
}
