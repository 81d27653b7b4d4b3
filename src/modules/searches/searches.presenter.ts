import { resource, type Resource } from '../../rest/document';
import type { SavedSearch } from './searches.service';

/** `{type: saved_searches, id, attributes: {account_id, filter, currency, created_at}}` (docs/saved-searches.md). */
export const presentSavedSearch = (s: SavedSearch): Resource =>
  resource('saved_searches', s.id, { account_id: s.accountId, filter: s.filter, currency: s.currency, created_at: s.createdAt.toISOString() });
