import { z } from 'zod';

/**
 * A link the service stores and shows to others: http(s) only, so that no `javascript:` or
 * `data:` link reaches a page that renders it.
 */
export const httpLink = (max = 2048) =>
  z.url({ protocol: /^https?$/, error: 'must be an http(s) link' }).max(max, `must be at most ${max} characters`);
