import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
  return build.executablePath();
}

export async function launchChromium(): Promise<Browser> {
  // Root in a container has no user namespaces for Chromium's sandbox.
  return chromium.launch({ executablePath: await executablePath(), args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
}
