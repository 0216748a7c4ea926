import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { de } from '../src/i18n/messages/de.js';
import { en } from '../src/i18n/messages/en.js';
import { type RunningService, startService } from '../src/service.js';
import { browserMissing, launchChromium } from './helpers/browser.js';
import { adminSync, request } from './helpers/http.js';
import { ROOT } from './helpers/process.js';
import { freePort } from './helpers/server.js';

/**
 * What the pages and documents say is true, and said in the reader's language: a cancelled event offers no
 * registration; a German page holds no English outside what is marked as English; /sources, translated, wraps a
 * long error; dates as each locale writes them, times with their zone; city paths as written; a bad page parameter
 * shown, not ignored; a favicon; an operator's sync logged. One server, one browser (Debian's Chromium).
 */

const SCREENSHOTS = join(ROOT, 'test-output');
const NOW = '2025-03-01T09:00:00Z'; // a Saturday: "next week" is 3–9 March
const ADMIN = 'truth-admin-token';
/** A feed that fails with a long URL in its error (a closed loopback port: nothing leaves the machine). */
const LONG_PATH = `/calendars/${'zuerich-ki-verein-oeffentlicher-kalender-'.repeat(6)}export.ics`;

/** Words of a message catalogue, without ICU's argument names and select keys. */
function catalogueWords(messages: Record<string, string>): Set<string> {
  const words = new Set<string>();
  for (const text of Object.values(messages)) {
    // Drop `{name, select|plural,` openers and `key {` case labels; keep the text inside the cases.
    const plain = text
      .replace(/\{\s*\w+\s*,\s*\w+\s*,/g, ' ')
      .replace(/[\w=]+\s*\{/g, ' { ')
      .replace(/\{\w+\}/g, ' ');
    for (const word of plain.toLowerCase().match(/\p{L}{3,}/gu) ?? []) words.add(word);
  }
  return words;
}

/** Names of days and months as English writes them and German does not. */
function calendarWords(locale: string): Set<string> {
  const words = new Set<string>();
  for (let i = 0; i < 12; i++) {
    const day = new Date(Date.UTC(2025, i, 1 + (i % 7)));
    for (const options of [{ weekday: 'short' }, { weekday: 'long' }, { month: 'short' }, { month: 'long' }] as const)
      words.add(new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(day).toLowerCase());
  }
  return words;
}

/** Words a German page must not show: the English pages' own words that German does not share. */
const ENGLISH_ONLY = (() => {
  const german = new Set([...catalogueWords(de), ...calendarWords('de')]);
  const english = new Set([...catalogueWords(en), ...calendarWords('en-GB')]);
  // The engine's English reason and restatement words, which a German page must have translated.
  for (const word of ['next', 'week', 'topic', 'title', 'mentions', 'upcoming', 'registration', 'expected'])
    english.add(word);
  return new Set([...english].filter((w) => !german.has(w) && /^\p{L}+$/u.test(w)));
})();

/**
 * The words of a page's text that are in German context: not inside an element marked with another language, nor
 * code (paths, identifiers such as a source's name).
 */
async function germanContextWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: any }).document;
    const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
    const texts: string[] = [doc.title];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const marked = node.parentElement?.closest('[lang]');
      if (marked?.getAttribute('lang') === 'de' && !node.parentElement.closest('code'))
        texts.push(node.textContent ?? '');
    }
    for (const el of doc.querySelectorAll('[aria-label], [placeholder]')) {
      if (el.closest('[lang]')?.getAttribute('lang') !== 'de') continue;
      texts.push(el.getAttribute('aria-label') ?? '', el.getAttribute('placeholder') ?? '');
    }
    return (
      texts
        .join(' ')
        .toLowerCase()
        .match(/\p{L}{3,}/gu) ?? []
    );
  });
}

describe.skipIf(browserMissing)('pages say only what is true, in the reader’s language', () => {
  let service: RunningService;
  let base: string;
  let browser: Browser;
  const logs: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'tev-truth-'));

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const closedPort = await freePort();
    const lines = join(dir, 'partner.jsonl');
    writeFileSync(
      lines,
      JSON.stringify({
        externalId: 'p-1',
        title: 'Datenabend Basel',
        startAt: '2025-03-06T18:00:00+01:00',
        city: 'Basel',
        language: 'de',
      }),
    );
    writeFileSync(
      join(dir, 'feeds.json'),
      JSON.stringify([
        { source: 'basler-partner', format: 'jsonl', url: lines },
        { source: 'zuercher-kalender', format: 'ical', url: `http://127.0.0.1:${closedPort}${LONG_PATH}?token=geheim` },
        {
          source: 'gruppen',
          format: 'ical',
          url: `http://127.0.0.1:${closedPort}/gruppen/{group}${LONG_PATH}`,
          each: {
            group: [
              { id: 'ki-stammtisch', name: 'KI-Stammtisch Zürich', city: 'Zürich', country: 'ch' },
              { id: 'datenfreunde', name: 'Datenfreunde Basel', city: 'Basel', country: 'ch' },
            ],
          },
        },
      ]),
    );
    const port = await freePort();
    const config = loadConfig({
      DATA_DIR: join(dir, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED: '0',
      SYNC_INTERVAL_MINUTES: '0',
      RATE_LIMIT_READS_PER_MINUTE: '0',
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      TECH_EVENTS_NOW: NOW,
      ADMIN_TOKEN: ADMIN,
      FEEDS_FILE: join(dir, 'feeds.json'),
      LOG_LEVEL: 'info',
    });
    service = await startService(config, pino({ level: 'info' }, { write: (line: string) => logs.push(line) }));
    base = service.address.replace('0.0.0.0', '127.0.0.1');

    const key = (await request(`${base}/api/admin/keys`, { key: ADMIN, json: { name: 'Zürcher KI-Verein' } })).body
      .key as string;
    const push = (json: Record<string, unknown>) => request(`${base}/api/events`, { key, json });
    await push({
      externalId: 'treff',
      title: 'KI-Treff Zürich',
      startAt: '2025-03-05T18:30:00+01:00',
      endAt: '2025-03-05T21:00:00+01:00',
      city: 'Zürich',
      topics: ['ai-ml'],
      price: 'free',
      capacity: 40,
      language: 'de',
    });
    await push({
      externalId: 'nacht',
      title: 'Cloud Native Night',
      startAt: '2025-03-04T18:00:00+01:00',
      city: 'Berlin',
      topics: ['cloud-devops'],
      language: 'en',
    });
    await push({ externalId: 'abend', title: 'Rust-Abend Bern', startAt: '2025-03-12T18:30:00+01:00', city: 'Bern' });
    await request(`${base}/api/events?externalId=abend`, { method: 'DELETE', key });

    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs a sync asked for by the operator as the schedule logs its runs', async () => {
    const { run: sync } = await adminSync(base, ADMIN);
    expect(sync.status).toBe(200);
    expect(sync.body.feeds).toEqual([
      expect.objectContaining({ source: 'basler-partner', created: 1 }),
      { source: 'zuercher-kalender', error: expect.any(String) },
      {
        source: 'gruppen',
        error: expect.stringMatching(/^all 2 calendars failed/),
        failingCalendars: [
          { calendar: 'ki-stammtisch', error: expect.any(String) },
          { calendar: 'datenfreunde', error: expect.any(String) },
        ],
      },
    ]);
    const entries = logs.map((line) => JSON.parse(line));
    expect(entries).toContainEqual(
      expect.objectContaining({ msg: 'feed basler-partner synced', by: 'operator', created: 1, urls: 1 }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'feed zuercher-kalender failed; serving its last good state',
        by: 'operator',
        error: expect.stringContaining('127.0.0.1'),
      }),
    );
  });

  it('says on a cancelled event’s page that it is cancelled, and offers no registration', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    for (const [lang, registration] of [
      ['de', 'Keine: Die Veranstaltung ist abgesagt'],
      ['en', 'None: the event is cancelled'],
    ] as const) {
      const res = await page.goto(`${base}/ch/events/rust-abend-bern?hl=${lang}`);
      expect(res?.status()).toBe(200);
      await expect(page.locator('.notice').textContent()).resolves.toMatch(lang === 'de' ? /abgesagt/ : /cancelled/);
      const row = page.locator('dl.facts dt', { hasText: lang === 'de' ? 'Anmeldung' : 'Registration' });
      await expect(row.locator('xpath=following-sibling::dd[1]').textContent()).resolves.toBe(registration);
      expect(await page.locator('a.cta').count()).toBe(0);
      expect(await page.locator('a[href$=".ics"], a[href^="webcal:"]').count()).toBe(0);
      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
      expect(ld.eventStatus).toBe('https://schema.org/EventCancelled');
    }
    await context.close();
  });

  it('shows German pages with no English outside what is marked lang="en"', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const pages = {
      country: '/ch?hl=de',
      search: `/ch?hl=de&q=${encodeURIComponent('KI nächste Woche')}`,
      // Nothing in Austria: the neighbours' events for the same search, with its date reasons.
      neighbours: `/at?hl=de&q=${encodeURIComponent('nächste Woche')}`,
      germany: '/de?hl=de',
      event: '/ch/events/ki-treff-zurich?hl=de',
      cancelled: '/ch/events/rust-abend-bern?hl=de',
      invalid: '/ch?hl=de&from=notadate',
      missing: '/ch/events/nirgends?hl=de',
      sources: '/sources?hl=de',
    };
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(`${base}${path}`);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
      const english = (await germanContextWords(page)).filter((word) => ENGLISH_ONLY.has(word));
      expect(english, `${name}: ${path}`).toEqual([]);
    }
    // The neighbours' lists read their date reasons back (the badge "Next week: Mon 3 Mar" was English).
    await page.goto(`${base}${pages.neighbours}`);
    await expect(page.locator('.reasons li').allTextContents()).resolves.toContain('Nächste Woche: Di., 4. März');
    // An event held in English keeps its title in English, marked so.
    await page.goto(`${base}${pages.germany}`);
    await expect(page.locator('h3', { hasText: 'Cloud Native Night' }).getAttribute('lang')).resolves.toBe('en');
    await context.close();
  });

  it('writes dates as each locale does, and times with their zone', async () => {
    const german = (await request(`${base}/ch?hl=de&order=date`)).text;
    expect(german).toContain('Mi., 5. März 2025 · 18:30–21:00');
    // The footer says how old each source's data is: one synced at 10:00, one not read yet.
    expect(german).toMatch(
      /Datenstand: .*basler-partner<\/code><\/a> 1\. März 2025, 10:00 MEZ · .*zuercher-kalender<\/code><\/a> noch nicht gelesen · .*gruppen<\/code><\/a> noch nicht gelesen\./,
    );
    const english = (await request(`${base}/ch?hl=en&order=date`)).text;
    expect(english).toContain('Wed, 5 Mar 2025 · 18:30–21:00');
    expect(english).toMatch(/Data as of: .*basler-partner<\/code><\/a> 1 Mar 2025, 10:00 CET · .*not read yet\./);
    const sources = (await request(`${base}/sources?hl=fr`)).text;
    expect(sources).toContain('1 mars 2025, 10:00 UTC+1');
  });

  it('translates /sources, a failed sync’s cause in words and its long address shortened, at 1280 px', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    for (const [lang, heading, refused] of [
      ['de', 'Quellen', 'der Server hat die Verbindung abgelehnt'],
      ['fr', 'Sources', 'le serveur a refusé la connexion'],
      ['it', 'Fonti', 'il server ha rifiutato la connessione'],
      ['en', 'Sources', 'the server refused the connection'],
    ] as const) {
      await page.goto(`${base}/sources?hl=${lang}`);
      await expect(page.locator('h1').textContent()).resolves.toBe(heading);
      const row = page.locator('table.sources').first().locator('tr', { hasText: 'zuercher-kalender' });
      await expect(row.textContent()).resolves.toContain(refused);
      // The address it failed at: short on the page, whole (without its token) in the link.
      const link = row.locator('a.url');
      await expect(link.getAttribute('href')).resolves.toMatch(new RegExp(`${LONG_PATH}$`));
      await expect(link.textContent()).resolves.toMatch(/^127\.0\.0\.1:\d+\/calendars\/…$/);
      await expect(row.textContent()).resolves.not.toContain('geheim');
      await expect(row.textContent()).resolves.not.toContain('ECONNREFUSED');
      // Each calendar of a feed of calendars with its own state (a feed of two shows them unfolded).
      await expect(page.locator('h2', { hasText: 'gruppen' }).textContent()).resolves.toMatch(/2/);
      await expect(page.locator('table.sources').nth(1).locator('tbody tr').count()).resolves.toBe(2);
      const { scroll, client } = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: any }).document.documentElement;
        return { scroll: root.scrollWidth as number, client: root.clientWidth as number };
      });
      expect(scroll, `/sources?hl=${lang} overflows`).toBeLessThanOrEqual(client);
      await page.screenshot({ path: join(SCREENSHOTS, `sources-failed-sync-${lang}.png`), fullPage: true });
    }
    // Negotiated like every page when the URL names no language.
    const negotiated = await request(`${base}/sources`, { headers: { 'accept-language': 'it-CH,it;q=0.9' } });
    expect(negotiated.headers.get('content-language')).toBe('it');
    expect(negotiated.headers.get('vary')).toMatch(/accept-language/i);
    await context.close();
  });

  it('finds a city’s markdown by its name as written, its slug or a folded spelling', async () => {
    const bodies = [];
    for (const city of [encodeURIComponent('Zürich'), 'zurich', 'Zuerich', 'ZÜRICH']) {
      const res = await request(`${base}/ch/cities/${city}.md`);
      expect(res.status, city).toBe(200);
      bodies.push(res.text);
    }
    expect(bodies[0]).toContain('KI-Treff Zürich');
    expect(new Set(bodies).size).toBe(1);
    // A figure in the Crowd column only from data: 85 % of the capacity of 40.
    expect(bodies[0]).toMatch(/\| ~35 expected \|$/m);
    expect((await request(`${base}/ch/cities/Atlantis.md`)).status).toBe(404);
  });

  it('shows a bad page parameter to the reader instead of ignoring it, and applies a good one', async () => {
    const bad = await request(`${base}/ch?hl=de&from=notadate`);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('Ab: „notadate“ ist kein Datum');
    const good = await request(`${base}/ch?hl=de&from=2025-03-06`);
    expect(good.status).toBe(200);
    expect(good.text).toContain('ab Do., 6. März 2025');
    expect(good.text).not.toContain('KI-Treff Zürich');
    // The language switcher keeps it.
    expect(good.text).toContain('href="/ch?from=2025-03-06&amp;hl=fr"');
  });

  it('has a favicon that Chromium draws', async () => {
    const res = await fetch(`${base}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/favicon.ico`);
    const size = await page.evaluate(() => {
      const img = (globalThis as unknown as { document: any }).document.images[0];
      return img ? [img.naturalWidth, img.naturalHeight] : [];
    });
    expect(size).toEqual([32, 32]);
    await page.goto(`${base}/ch?hl=en`);
    await expect(page.locator('link[rel="icon"]').first().getAttribute('href')).resolves.toBe('/favicon.ico');
    expect((await fetch(`${base}/favicon.svg`)).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    await context.close();
  });
});
