import { appWithPlatform } from '../helpers/world';
import { createAccount } from '../helpers/factories';
import { signIn } from './support';

const world = appWithPlatform();

const retryAfter = (res: { headers: Record<string, unknown> }) => Number(res.headers['retry-after']);

describe('a 429 says when to retry (Retry-After, seconds)', () => {
  it('POST /jwt over the failure limit: until the limit frees, within the 15-minute window', async () => {
    const user = await createAccount(world.t, world.platform);
    for (let i = 0; i < 10; i++) expect((await signIn(world.t, { account_id: user.id, password: 'wrong password' })).status).toBe(401);
    const limited = await signIn(world.t, { account_id: user.id, password: user.password });
    expect(limited.status).toBe(429);
    expect(retryAfter(limited)).toBeGreaterThan(800);
    expect(retryAfter(limited)).toBeLessThanOrEqual(900);
  });

  it('a verification token resent too soon: within the minute', async () => {
    const user = await createAccount(world.t, world.platform);
    const resend = () => world.t.client.get(`/accounts/verification/resend?account_id=${user.id}&receiver=email`);
    expect((await resend()).status).toBe(204);
    const tooSoon = await resend();
    expect(tooSoon.status).toBe(429);
    expect(retryAfter(tooSoon)).toBeGreaterThan(0);
    expect(retryAfter(tooSoon)).toBeLessThanOrEqual(60);
  });
});
