import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from './app';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * CHROMIUM_PATH, else the system's Chromium, else the build carried by `@sparticuz/chromium`
 * (unpacked into the temporary folder), so that a plain `npm ci` is enough for the browser tests.
 */
async function executablePath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  // Imported only when needed: it is an ES module package, loaded through its CommonJS build here.
  const { default: build } = await import('@sparticuz/chromium');
  return unpackedOnce(() => build.executablePath());
}

/**
 * The package unpacks Chromium into the temporary folder and takes any file already there as
 * done, so a second test file starting meanwhile would launch a half-written binary. One process
 * of the run unpacks (it creates the lock folder first); the others wait for its mark.
 */
async function unpackedOnce(unpack: () => Promise<string>): Promise<string> {
  const ready = path.join(tmpdir(), 'chromium.unpacked');
  try {
    mkdirSync(path.join(tmpdir(), 'chromium.lock'));
  } catch {
    const deadline = Date.now() + 120_000;
    while (!existsSync(ready)) {
      if (Date.now() > deadline) throw new Error('another test process did not finish unpacking Chromium');
      await new Promise((r) => setTimeout(r, 100));
    }
    return readFileSync(ready, 'utf8');
  }
  const executable = await unpack();
  // Written whole, then named: a waiting process never reads half of it.
  writeFileSync(`${ready}.tmp`, executable);
  renameSync(`${ready}.tmp`, ready);
  return executable;
}

export async function launchChromium(): Promise<Browser> {
  // Root in a container has no user namespaces for Chromium's sandbox.
  return chromium.launch({ executablePath: await executablePath(), args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
}

/**
 * A page whose every request off `base`'s host is refused and recorded, as on a machine with no
 * network, with the page's errors and console errors collected.
 */
export async function offlinePage(browser: Browser, base: string): Promise<{ page: Page; outside: string[]; problems: string[] }> {
  const host = new URL(base).hostname;
  const page = await browser.newPage();
  const outside: string[] = [];
  const problems: string[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === host || url.protocol === 'data:') return route.continue();
    outside.push(url.href);
    return route.abort();
  });
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`${msg.text()} (${msg.location().url})`);
  });
  return { page, outside, problems };
}

/** A test app and a browser for the test file: started before its tests, closed after them. */
export function appAndBrowser(): { t: TestApp; browser: Browser } {
  const world = {} as { t: TestApp; browser: Browser };
  beforeAll(async () => {
    world.t = await startTestApp();
    world.browser = await launchChromium();
  });
  afterAll(async () => {
    await world.browser?.close();
    await world.t?.close();
  });
  return world;
}
