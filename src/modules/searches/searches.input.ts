import { z } from 'zod';
import { lotFilterInput, type LotFilter } from '../lots/lots.filter';

/** The filters a saved search may hold: those a new lot can be matched on by its own columns. */
export const SAVED_FILTERS = ['country', 'city', 'maker', 'model', 'modelPrefix', 'lotType', 'fuel', 'year', 'price', 'buyNow', 'currency'] as const;

export const savedSearchInput = z.object({
  accountId: z.string(),
  filter: lotFilterInput,
});
export type SavedSearchInput = z.input<typeof savedSearchInput>;
export type SavedFilter = Pick<LotFilter, (typeof SAVED_FILTERS)[number]>;

export const savedSearchRef = z.object({ accountId: z.string(), id: z.string().regex(/^\d{1,18}$/, 'must be an integer') });
export type SavedSearchRef = z.input<typeof savedSearchRef>;
