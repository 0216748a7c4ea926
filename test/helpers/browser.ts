import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (playwright-core downloads no browser of its own); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** CI installs Chromium and must run the browser tests; elsewhere they are skipped, with a message, without it. */
export const browserMissing = !existsSync(CHROMIUM) && !process.env.CI;
if (browserMissing) console.warn(`Skipping the browser tests: no ${CHROMIUM} (apt-get install chromium).`);

/** Chromium headless, sending nothing beyond the pages it is pointed at. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
