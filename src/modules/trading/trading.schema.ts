import type { QuerySpec } from '../../rest/query';
import { DEPOSIT_STATE_VALUES } from './trading.input';

/** The query of GET /deposits (docs/rest.md, "Query parameters"). */
export const DEPOSIT_INDEX_QUERY: QuerySpec = {
  filters: {
    state: { kind: 'list', values: DEPOSIT_STATE_VALUES },
    lot_id: { kind: 'integer' },
  },
  sorts: ['created_at'],
  defaultSort: '-created_at',
  includes: ['participant'],
  page: 'cursor',
};
