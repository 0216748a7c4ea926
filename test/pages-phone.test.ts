import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../src/i18n/languages.js';
import { browserMissing, launchChromium, seriousViolations } from './helpers/browser.js';
import { request } from './helpers/http.js';
import { ROOT } from './helpers/process.js';
import { freePort, startTestServer, type TestServer } from './helpers/server.js';

const SCREENSHOTS = join(ROOT, 'test-output');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Whether the chosen option of a menu shows whole: its text, as the menu draws it, within the menu's inner width. */
async function menuTextFits(page: Page, selector: string): Promise<{ text: string; needs: number; has: number }> {
  return page.locator(selector).evaluate((el) => {
    const select = el as unknown as {
      selectedOptions: { text: string }[];
      clientWidth: number;
      scrollWidth: number;
      ownerDocument: { createElement(tag: string): { getContext(kind: string): unknown } };
    };
    type Style = {
      fontWeight: string;
      fontSize: string;
      fontFamily: string;
      paddingLeft: string;
      paddingRight: string;
    };
    const style = (globalThis as unknown as { getComputedStyle(e: unknown): Style }).getComputedStyle(el);
    const canvas = select.ownerDocument.createElement('canvas');
    const context = canvas.getContext('2d') as { font: string; measureText(text: string): { width: number } };
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = select.selectedOptions[0]!.text;
    // The drop-down arrow takes about a line's height at the right.
    const arrow = Number.parseFloat(style.fontSize);
    const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
    if (select.scrollWidth > select.clientWidth) return { text, needs: select.scrollWidth, has: select.clientWidth };
    return { text, needs: context.measureText(text).width + padding + arrow, has: select.clientWidth };
  });
}

/**
 * The pages on a phone and on a laptop, in Chromium, over the shipped configuration started offline (its feeds
 * file with every address on a port where nothing answers, its snapshots seeded): what a first visitor meets.
 */
describe.skipIf(browserMissing)('pages on a phone and a laptop', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tev-phone-'));
    const offline = `http://127.0.0.1:${await freePort()}`;
    const shipped = readFileSync(new URL('../feeds.json', import.meta.url), 'utf8')
      .replace(/"url": "https:\/\/[^/"]+/g, `"url": "${offline}`)
      .replace(/"seed": "/g, `"seed": "${new URL('..', import.meta.url).pathname}`);
    writeFileSync(join(dir, 'feeds.json'), shipped);
    server = await startTestServer('pglite', {
      now: '2026-12-01T09:00:00Z',
      env: { FEEDS_FILE: join(dir, 'feeds.json'), SEED: '1', SYNC_INTERVAL_MINUTES: '360' },
    });
    // The first sync runs at start and fails everywhere, as it does offline: the sources page at its longest.
    for (let i = 0; i < 300; i++) {
      const { body } = await request<{ sources: { feed: boolean; enabled: boolean; lastAttempt: string | null }[] }>(
        `${server.base}/api/sources`,
      );
      if (body.sources.every((s) => !s.feed || !s.enabled || s.lastAttempt)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the first result of a search within the first screen of a phone, the form folded above it', async () => {
    for (const lang of LANGUAGES) {
      const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${server.base}/?hl=${lang}&q=conference`);
      const first = (await page.locator('ol.results > li').first().boundingBox())!;
      expect(first.y, `first result on the ${lang} page`).toBeLessThan(PHONE.height);
      // The form is one line that shows the search; opened, its fields hold it.
      await expect(page.locator('details.search summary strong').textContent()).resolves.toBe('conference');
      await expect(page.locator('input[name="q"]').isVisible()).resolves.toBe(false);
      await page.locator('details.search > summary').click();
      await expect(page.locator('input[name="q"]').inputValue()).resolves.toBe('conference');
      // Nothing wider than the phone.
      const { scroll, client } = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: Record<string, number> } }).document
          .documentElement;
        return { scroll: root.scrollWidth!, client: root.clientWidth! };
      });
      expect(scroll, `${lang} scrolls sideways`).toBeLessThanOrEqual(client);
      await page.locator('details.search > summary').click();
      await page.screenshot({ path: join(SCREENSHOTS, `phone-search-${lang}.png`) });
      await context.close();
    }
  });

  it('keeps the form open and focused where no search ran, folds it for a place’s list', async () => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.base}/de?hl=en`);
    await expect(page.locator('details.search').count()).resolves.toBe(0);
    await expect(page.locator('input[name="q"]:focus').count()).resolves.toBe(1);
    // A place's list, as a map marker links it, is a search too: folded, showing the place.
    await page.goto(`${server.base}/ch?hl=en&city=${encodeURIComponent('Zürich')}`);
    await expect(page.locator('details.search summary strong').textContent()).resolves.toBe('Zürich');
    await expect(page.locator('details.search').getAttribute('open')).resolves.toBeNull();
    // A search with a problem keeps its form open, to be mended.
    await page.goto(`${server.base}/ch?hl=en&q=rust&from=notadate`);
    await expect(page.locator('details.search').getAttribute('open')).resolves.toBe('');
    await context.close();
  });

  it('shows the country menu’s text whole, in every language, on a laptop and a phone', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      for (const lang of LANGUAGES) {
        for (const path of [`/?hl=${lang}`, `/?hl=${lang}&q=conference`]) {
          await page.goto(`${server.base}${path}`);
          if (path.includes('q=')) await page.locator('details.search > summary').click();
          const { text, needs, has } = await menuTextFits(page, 'select[name="country"]');
          expect(needs, `“${text}” at ${viewport.width} px, ${path}`).toBeLessThanOrEqual(has);
        }
      }
      await context.close();
    }
  });

  it('keeps /sources short for the shipped feeds: a summary first, states in words, addresses shortened', async () => {
    const words = {
      en: ['5 sources: 0 read', '0 of 67 calendars read.', 'the server refused the connection'],
      de: ['5 Quellen: 0 gelesen', '0 von 67 Kalendern gelesen.', 'der Server hat die Verbindung abgelehnt'],
      fr: ['5 sources\u00a0: 0 lue', '0 sur 67 calendriers lus.', 'le serveur a refusé la connexion'],
      it: ['5 fonti: 0 lette', '0 su 67 calendari letti.', 'il server ha rifiutato la connessione'],
    } as const;
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      for (const lang of LANGUAGES) {
        await page.goto(`${server.base}/sources?hl=${lang}`);
        const [summary, calendars, refused] = words[lang];
        // The summary comes first, under the heading.
        await expect(page.locator('h1 + ul.summary li').first().textContent()).resolves.toContain(summary);
        await expect(page.locator('ul.summary li').nth(1).textContent()).resolves.toBe(calendars);
        const meetup = page.locator('table.sources').first().locator('tr', { hasText: 'meetup' });
        await expect(meetup.textContent()).resolves.toContain(refused);
        // No raw address in the text: each is a short link, its whole URL in its href.
        const text = (await page.locator('main').textContent())!;
        expect(text).not.toMatch(/https?:\/\//);
        expect(text).not.toContain('ECONNREFUSED');
        for (const link of await page.locator('a.url').all()) {
          expect((await link.textContent())!.length).toBeLessThanOrEqual(50);
          await expect(link.getAttribute('href')).resolves.toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
        }
        // The 64 Meetup groups fold under one line that counts them; the three community calendars show.
        const folded = page.locator('details.calendars', { hasText: 'meetup' });
        await expect(folded.getAttribute('open')).resolves.toBeNull();
        await expect(folded.locator('summary').textContent()).resolves.toMatch(/64/);
        await expect(
          page.locator('details.calendars', { hasText: 'community-calendars' }).getAttribute('open'),
        ).resolves.toBe('');
        const size = await page.evaluate(() => {
          const root = (globalThis as unknown as { document: { documentElement: Record<string, number> } }).document
            .documentElement;
          return { height: root.scrollHeight!, scroll: root.scrollWidth!, client: root.clientWidth! };
        });
        if (viewport === DESKTOP) expect(size.height, `/sources?hl=${lang}`).toBeLessThan(2500);
        expect(size.scroll, `/sources?hl=${lang} at ${viewport.width} px`).toBeLessThanOrEqual(size.client);
        await page.screenshot({
          path: join(SCREENSHOTS, `sources-offline-${lang}-${viewport.width}.png`),
          fullPage: true,
        });
      }
      await context.close();
    }
  });

  it('is axe-clean: the folded search, its map and /sources, on a phone and a laptop', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      for (const lang of LANGUAGES) {
        for (const path of [`/?hl=${lang}&q=conference`, `/sources?hl=${lang}`]) {
          await page.goto(`${server.base}${path}`);
          expect(await seriousViolations(page), `${path} at ${viewport.width} px`).toEqual([]);
        }
      }
      await context.close();
    }
  });
});
