import { inputDocument, parseDocument, requirePathId } from '../../rest/document';
import { allFromWire } from '../../rest/fields';
import type { AppRouter } from '../../rest/router';
import { updateRulesInput } from './rules.input';
import { presentFeeEstimate, presentRules } from './rules.presenter';

/** The rules' attributes under their domain names, at every depth (`increments[].up_to` is `upTo`). */
function fromWireDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromWireDeep);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(allFromWire(value as Record<string, unknown>)).map(([k, v]) => [k, fromWireDeep(v)]));
}

export function rulesRoutes(router: AppRouter): void {
  const { rules } = router.services;
  router.get('/platforms/:id/rules', { summary: "Read a platform's auction rules (its staff)", authenticated: true, response: 'platform_rules' }, async ({ ctx, params }) => ({ data: presentRules(await rules.get(ctx, { platformId: params.id })) }));
  router.patch(
    '/platforms/:id/rules',
    { summary: "Change a platform's auction rules: a new version, for the lots created from then on (its staff)", authenticated: true, body: { type: 'platform_rules', input: updateRulesInput, omit: ['platformId'], id: 'required' }, response: 'platform_rules' },
    async ({ ctx, params, body }) => {
    const { data } = parseDocument(inputDocument('platform_rules'), body);
    requirePathId(data.id, params.id, 'data.id must be the id of the platform in the path');
    return { data: presentRules(await rules.update(ctx, { ...(fromWireDeep(data.attributes ?? {}) as object), platformId: params.id })) };
  });
  router.get('/lots/:id/fee_estimate', { summary: "The buyer's fee the lot's rules charge on an amount", response: 'fee_estimates', query: { plain: { amount: { kind: 'string', required: true } } }, fields: 'query' }, async ({ ctx, params, query }) => ({
    data: presentFeeEstimate(await rules.feeEstimate(ctx, { lotId: params.id, amount: query.plain.amount })),
  }));
}
