import { resource, type Resource } from '../../rest/document';
import { wireName } from '../../rest/fields';
import { rfc3339 } from '../../core/time';
import type { SavedSearch } from './searches.service';

/** A filter's value as GET /lots writes it: a range as `min,max` (an end absent when open), a list comma-separated. */
function queryText(value: unknown): string {
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'object' && value !== null) {
    const { min, max } = value as { min?: unknown; max?: unknown };
    return `${min ?? ''},${max ?? ''}`;
  }
  return String(value);
}

/**
 * A stored filter (the lot filter's names and values, as every row holds it, those saved before
 * REST took GET /lots' syntax too) as GET /lots takes it: wire names, query text.
 */
const queryForm = (filter: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [wireName(k), queryText(v)]));

/** `{type: saved_searches, id, attributes: {account_id, filter, currency, created_at}}` (docs/saved-searches.md). */
export const presentSavedSearch = (s: SavedSearch): Resource =>
  resource('saved_searches', s.id, { account_id: s.accountId, filter: queryForm(s.filter), currency: s.currency, created_at: rfc3339(s.createdAt) });
