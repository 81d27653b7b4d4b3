import { startTestApp, type TestApp } from './app';
import { createAccount, createPlatform, type CreatedAccount } from './factories';

/**
 * Registers the test file's `beforeAll` that boots the app and runs `build` on it, and the
 * `afterAll` that closes the app. Call at the top of a test file: the returned object holds `t`
 * and the fields `build` answers by the time the tests run, so read them inside tests only.
 */
export function appWith<T extends object>(build: (t: TestApp) => Promise<T>, env?: Record<string, string>): T & { t: TestApp } {
  const world = {} as T & { t: TestApp };
  beforeAll(async () => {
    world.t = await startTestApp(env);
    Object.assign(world, await build(world.t));
  });
  afterAll(() => world.t.close());
  return world;
}

export interface WorldOptions {
  /** How many users of the platform to create; none by default. */
  accounts?: number;
  /** Extra environment for the app (see `startTestApp`). */
  env?: Record<string, string>;
}

/** An app with one platform and `accounts` users of it, each signing its own creation. */
export function appWithPlatform(opts: WorldOptions = {}) {
  return appWith(async (t) => {
    const platform = await createPlatform(t);
    const accounts: CreatedAccount[] = [];
    for (let i = 0; i < (opts.accounts ?? 0); i++) accounts.push(await createAccount(t, platform));
    return { platform, accounts };
  }, opts.env);
}

/** Two platforms, an admin of each, and `users` users of the first. */
export async function twoPlatforms(t: TestApp, users = 0) {
  const platform = await createPlatform(t);
  const otherPlatform = await createPlatform(t);
  const admin = await createAccount(t, platform, { type: 'admin' });
  const otherAdmin = await createAccount(t, otherPlatform, { type: 'admin' });
  const created: CreatedAccount[] = [];
  for (let i = 0; i < users; i++) created.push(await createAccount(t, platform));
  return { platform, otherPlatform, admin, otherAdmin, users: created };
}

/** An app with two platforms and an admin of each; a file's own `beforeAll` runs after it. */
export function appWithTwoPlatforms() {
  return appWith(async (t) => {
    const { platform, otherPlatform, admin, otherAdmin } = await twoPlatforms(t);
    return { platform, otherPlatform, admin, otherAdmin };
  });
}
