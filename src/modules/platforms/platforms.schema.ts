import { z } from 'zod';
import { CURRENCIES } from '../../core/money';
import type { QuerySpec } from '../../rest/query';
import { STATS_INTERVALS } from './platforms.stats';

export const masterSignerDocument = z.object({
  data: z.object({
    type: z.literal('signers', { error: 'must be "signers"' }),
    id: z.string({ error: 'must be a public key string' }),
  }),
});

/** GET /platforms/{id}/stats: the range (RFC 3339 date-times, each at the start of an interval), its interval and the GMV's currency. */
export const PLATFORM_STATS_QUERY: QuerySpec = {
  plain: {
    from: { kind: 'string', max: 40, required: true },
    to: { kind: 'string', max: 40, required: true },
    interval: { kind: 'enum', values: STATS_INTERVALS, required: true },
    currency: { kind: 'enum', values: CURRENCIES },
  },
};
