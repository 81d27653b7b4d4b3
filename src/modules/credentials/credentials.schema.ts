import { z } from 'zod';

/**
 * The envelope of a body whose `data.type` the spec does not name (POST /jwt, PATCH /credentials):
 * optional and not checked. With `type`, a type that is given must be that one.
 */
export function looseDocument(type?: string) {
  return z.object({
    data: z.object({
      type: type ? z.literal(type, { error: `must be "${type}"` }).optional() : z.unknown().optional(),
      id: z.unknown().optional(),
      attributes: z.record(z.string(), z.unknown()).optional(),
    }),
  });
}
