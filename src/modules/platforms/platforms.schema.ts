import { z } from 'zod';

export const masterSignerDocument = z.object({
  data: z.object({
    type: z.literal('signers', { error: 'must be "signers"' }),
    id: z.string({ error: 'must be a public key string' }),
  }),
});
