import { appWithPlatform } from '../helpers/world';
import { patchRules } from '../rules/rules.helpers';

/**
 * The rules bounded closer than ten years (soft close's window and extension up to a day, the
 * extensions' total and a second chance's time up to 30 days) were checked against both bounds:
 * `extend_by: 1000000000` answered two errors for the one field, "<=315360000" and "<=86400",
 * the first of them wrong. One field past its bound is one error naming the bound that holds.
 */
const world = appWithPlatform();

describe('a rule past its bound', () => {
  it.each([
    ['extend_window', 86400],
    ['extend_by', 86400],
    ['max_extension_seconds', 30 * 86400],
    ['second_chance_ttl', 30 * 86400],
  ])('answers one error for %s, naming its own bound', async (field, bound) => {
    const res = await patchRules(world.t, world.platform, world.platform.publicKey(), { [field]: 1_000_000_000 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'invalid_field', source: { pointer: `/data/attributes/${field}` } })]);
    expect(res.body.errors[0].detail).toContain(`<=${bound}`);
  });
});
