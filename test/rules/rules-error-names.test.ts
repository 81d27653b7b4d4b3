import { appWithPlatform } from '../helpers/world';

/**
 * A rule's fault that names another field besides its own names it as each edge's client writes
 * it: REST by the wire's snake_case names, GraphQL by its argument names.
 */
const world = appWithPlatform();
const UPDATE = /* GraphQL */ `mutation ($id: ID!, $rules: PlatformRulesInput!) { updatePlatformRules(platformId: $id, rules: $rules) { version } }`;

const rest = async (attributes: Record<string, unknown>) => {
  const id = world.platform.publicKey();
  const res = await world.t.client.as(world.platform).patch(`/platforms/${id}/rules`, { data: { type: 'platform_rules', id, attributes } });
  expect(res.status).toBe(400);
  return res.body.errors.map((e: { detail: string; source: unknown }) => [e.detail, e.source]);
};
const graphql = async (rules: Record<string, unknown>) => {
  const res = await world.t.client.as(world.platform).graphql(UPDATE, { id: world.platform.publicKey(), rules });
  expect(res.body.errors[0].extensions.status).toBe(400);
  return res.body.errors[0].extensions.errors.map((e: { detail: string; field: string }) => [e.detail, e.field]);
};

describe('faults of the platform rules that name other fields', () => {
  it('an increment band’s steps and bounds', async () => {
    expect(await rest({ increments: [{ up_to: '500', min_step: '100', max_step: '50' }, { up_to: '400', min_step: '10' }, { up_to: null, min_step: '1' }] })).toEqual([
      ['increments/0/max_step: must not be less than min_step', { pointer: '/data/attributes/increments/0/max_step' }],
      ["increments/1/up_to: must be greater than the previous band's up_to (500.00)", { pointer: '/data/attributes/increments/1/up_to' }],
    ]);
    expect(await graphql({ increments: [{ upTo: '500', minStep: '100', maxStep: '50' }, { upTo: '400', minStep: '10' }, { upTo: null, minStep: '1' }] })).toEqual([
      ['increments.0.maxStep: must not be less than minStep', 'increments.0.maxStep'],
      ["increments.1.upTo: must be greater than the previous band's upTo (500.00)", 'increments.1.upTo'],
    ]);
  });

  it('the durations and the soft close', async () => {
    expect(await rest({ min_duration: 7200, max_duration: 3600 })).toEqual([['max_duration must not be less than min_duration (7200)', { pointer: '/data/attributes/max_duration' }]]);
    expect(await graphql({ minDuration: 7200, maxDuration: 3600 })).toEqual([['maxDuration must not be less than minDuration (7200)', 'maxDuration']]);
    expect(await rest({ extend_window: 60 })).toEqual([['extend_window and extend_by are set (or cleared) together', { pointer: '/data/attributes/extend_by' }]]);
    expect(await graphql({ extendWindow: 60 })).toEqual([['extendWindow and extendBy are set (or cleared) together', 'extendBy']]);
  });
});
