import type { QuerySpec } from '../../rest/query';
import { CURRENCIES } from '../../core/money';
import { DEFAULT_REQUEST_PAGE_SIZE, REQUEST_SORTS, REQUEST_STATE_VALUES, REQUEST_TYPES } from './requests.input';

const account = { kind: 'string', max: 56 } as const;
const currency = { currency: { kind: 'enum', values: CURRENCIES } } as const;

/** GET /accounts/{id}/create_lot_requests (docs/rest.md, "Query parameters"). */
export const ACCOUNT_REQUESTS_QUERY: QuerySpec = {
  plain: currency,
  filters: {
    requestor: account,
    reviewer: account,
    state: { kind: 'list', values: REQUEST_STATE_VALUES },
    archived: { kind: 'boolean' },
  },
  sorts: REQUEST_SORTS,
  defaultSort: '-created_at',
  page: 'number',
  defaultPageSize: DEFAULT_REQUEST_PAGE_SIZE,
};

/** GET /requests: the same, with the required `filter[type]`. */
export const REQUEST_INDEX_QUERY: QuerySpec = {
  ...ACCOUNT_REQUESTS_QUERY,
  filters: { type: { kind: 'enum', values: REQUEST_TYPES, required: true }, ...ACCOUNT_REQUESTS_QUERY.filters },
};

export const REQUEST_GET_QUERY: QuerySpec = { plain: currency };
