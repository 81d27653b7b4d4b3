import { z } from 'zod';
import { lotFilterInput, type LotFilter } from '../lots';

/** The filters a saved search may hold: those a new lot can be matched on by its own columns. */
export const SAVED_FILTERS = ['country', 'city', 'maker', 'model', 'modelPrefix', 'lotType', 'fuel', 'year', 'price', 'buyNow', 'currency'] as const;

/** The years a saved search keeps (in `integer` columns): any a vehicle can have, and no other. */
const YEARS = { min: 0, max: 9999 };

export const savedSearchInput = z.object({
  accountId: z.string(),
  filter: lotFilterInput.superRefine((filter, ctx) => {
    const year = (filter as LotFilter).year;
    const ends = [year?.min, year?.max].filter((v): v is number => typeof v === 'number');
    if (ends.some((v) => v < YEARS.min || v > YEARS.max)) ctx.addIssue({ code: 'custom', path: ['year'], message: `ends must be years from ${YEARS.min} to ${YEARS.max}` });
  }),
});
export type SavedSearchInput = z.input<typeof savedSearchInput>;
export type SavedFilter = Pick<LotFilter, (typeof SAVED_FILTERS)[number]>;

export const savedSearchRef = z.object({ accountId: z.string(), id: z.string().regex(/^\d{1,18}$/, 'must be an integer') });
export type SavedSearchRef = z.input<typeof savedSearchRef>;
