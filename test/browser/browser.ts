// Owns starting Debian's Chromium for the browser tests through playwright-core, and the rule for a
// missing browser: skip with a clear message, unless REQUIRE_BROWSER=1 makes it a failure.

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** The browser the tests drive; CHROMIUM_PATH overrides Debian's /usr/bin/chromium. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const flags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Why the browser tests cannot run here, or undefined when they can. With REQUIRE_BROWSER=1 a missing
 * browser throws instead, so CI cannot pass by skipping.
 */
export function browserUnavailable(): string | undefined {
  if (existsSync(chromiumPath)) return undefined;
  const reason = `no Chromium at ${chromiumPath} (install it with \`apt-get install -y chromium\` or set CHROMIUM_PATH)`;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${reason}`);
  return reason;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: flags, timeout: 60000 });
}
