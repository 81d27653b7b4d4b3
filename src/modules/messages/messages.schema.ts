import { DomainError, type ErrorItem } from '../../core/errors';
import { ACCOUNT_ID } from '../../core/ids';
import type { ParsedQuery, QuerySpec } from '../../rest/query';
import { DEFAULT_MESSAGE_PAGE_SIZE, MAX_SEARCH_LENGTH, MESSAGE_SORTS } from './messages.input';

const account = { kind: 'string', max: 56 } as const;
const accounts = { kind: 'list', item: ACCOUNT_ID } as const;
const lotId = { kind: 'integer' } as const;

/** GET /lots/{id}/messages (docs/rest.md, "Query parameters"). */
export const MESSAGE_INDEX_QUERY: QuerySpec = {
  filters: { receivers: accounts, sender: account, lot_id: lotId, platform: accounts, search: { kind: 'string', max: MAX_SEARCH_LENGTH } },
  sorts: MESSAGE_SORTS,
  defaultSort: '-created_at',
  includes: ['lot', 'members'],
  page: 'number',
  defaultPageSize: DEFAULT_MESSAGE_PAGE_SIZE,
};

/** GET /messages/dialogs. */
export const DIALOGS_QUERY: QuerySpec = {
  filters: { receivers: accounts, with: account, lot_id: lotId },
  includes: ['lot', 'members'],
};

/** GET /messages/unread. */
export const UNREAD_QUERY: QuerySpec = {
  filters: { receiver: account, sender: account, lot_id: lotId, platform: accounts },
};

const SINGLE_ACCOUNTS = ['sender', 'with', 'receiver'];

/**
 * What the generic query parser cannot say: single account filters must be account ids and
 * `lot_id` not negative; each fault names its parameter.
 */
export function checkMessageFilters(query: ParsedQuery): void {
  const errors: ErrorItem[] = [];
  for (const [name, value] of Object.entries(query.filters)) {
    const parameter = `filter[${name}]`;
    if (SINGLE_ACCOUNTS.includes(name) && !ACCOUNT_ID.test(String(value))) {
      errors.push({ code: 'invalid_parameter', detail: `${parameter} must be an account id (G…)`, source: { parameter } });
    }
    if (name === 'lot_id' && (value as number) < 0) {
      errors.push({ code: 'invalid_parameter', detail: `${parameter} must be a lot id`, source: { parameter } });
    }
  }
  if (errors.length) throw new DomainError('invalid', errors as [ErrorItem, ...ErrorItem[]]);
}
