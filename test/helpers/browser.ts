import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

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

const AXE_SOURCE: string = createRequire(import.meta.url)('axe-core').source;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (injected: the test context bypasses the CSP). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<unknown> } })
      .axe;
    const document = (globalThis as { document?: unknown }).document;
    const results = (await axe.run(document, { resultTypes: ['violations'] })) as { violations: AxeViolation[] };
    return results.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
}

/** Gives a page a device that holds passkeys: a CDP virtual authenticator that verifies its user at once. */
export async function addPasskeyDevice(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}
