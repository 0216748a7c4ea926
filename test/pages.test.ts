import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { ROOT } from './helpers/process.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const SCREENSHOTS = join(ROOT, 'test-output');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// CI installs Debian's chromium and must run these; elsewhere they need `apt-get install chromium`.
const browserMissing = !existsSync(CHROMIUM) && !process.env.CI;
if (browserMissing) console.warn(`Skipping the browser tests: no ${CHROMIUM} (apt-get install chromium).`);

describe.skipIf(browserMissing)('pages in a real browser (Debian chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    server = await startTestServer('pglite', { now: '2025-03-01T09:00:00Z', env: { SEED: '1' } });
    key = await server.createKey('Zürich AI Society', 'ch');
    await request(`${server.base}/api/events`, {
      key,
      json: {
        externalId: 'ki',
        title: 'KI Meetup Zürich <script>alert(1)</script>',
        startAt: '2025-03-05T18:30:00+01:00',
        city: 'Zürich',
        venue: 'Impact Hub',
        topics: ['ai-ml'],
        price: 'free',
        url: 'https://example.org/ki?a=1&b="2"',
        description: 'Talks about LLMs. </script><img src=x onerror=alert(2)>',
      },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('searches without JavaScript, shows ranked results with reasons, and follows an event link', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${server.base}/`);
    await page.getByRole('searchbox').fill('AI meetups in Zürich next week');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=AI/);
    await expect(page.locator('.understood').textContent()).resolves.toMatch(
      /AI & ML meetups in or near Zürich, next week \(3–9 Mar 2025\)/,
    );
    const first = page.locator('ol.results > li').first();
    await expect(first.locator('h2').textContent()).resolves.toBe('KI Meetup Zürich <script>alert(1)</script>');
    const reasons = await first.locator('.reasons li').allTextContents();
    expect(reasons).toEqual(expect.arrayContaining(['Topic: AI & ML', 'In Zürich', 'Next week: Wed 5 Mar']));
    await page.screenshot({ path: join(SCREENSHOTS, 'search.png'), fullPage: true });

    await first.locator('h2 a').click();
    await page.waitForURL(/\/ch\/events\//);
    await expect(page.locator('h1').textContent()).resolves.toBe('KI Meetup Zürich <script>alert(1)</script>');
    const cta = page.getByRole('link', { name: /Tickets & registration/ });
    await expect(cta.getAttribute('href')).resolves.toBe('https://example.org/ki?a=1&b="2"');
    await expect(page.getByRole('link', { name: 'Subscribe (webcal)' }).getAttribute('href')).resolves.toMatch(
      /^webcal:\/\//,
    );
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
    expect(ld).toMatchObject({
      '@type': 'Event',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      startDate: '2025-03-05T18:30:00.000+01:00',
    });
    expect(ld.description).toBe('Talks about LLMs. </script><img src=x onerror=alert(2)>');
    await expect(page.locator('meta[property="og:title"]').getAttribute('content')).resolves.toBe(
      'KI Meetup Zürich <script>alert(1)</script>',
    );
    expect(await page.locator('img').count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'event.png'), fullPage: true });
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it('keeps a cancelled event page up with a notice, 404s unknown events, and sends a CSP', async () => {
    await request(`${server.base}/api/events?externalId=ki`, { key, method: 'DELETE' });
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${server.base}/ch/events/ki-meetup-zurich-script-alert-1-script`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/cancelled by its host/);
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
    expect(ld.eventStatus).toBe('https://schema.org/EventCancelled');
    const headers = response!.headers();
    expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    await page.screenshot({ path: join(SCREENSHOTS, 'cancelled.png'), fullPage: true });
    const missing = await page.goto(`${server.base}/ch/events/no-such-event`);
    expect(missing?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('Not found');
    await context.close();
  });

  it('says where the same search finds events when none match in the chosen country', async () => {
    const res = await request(`${server.base}/at?q=voxxed`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('No upcoming events match');
    expect(res.text).toMatch(/<a href="\/ch\?q=voxxed">\d+ in Switzerland<\/a>/);
  });

  it('shows invalid filters as a message, not an error page', async () => {
    const res = await request(`${server.base}/?city=Atlantis`);
    expect(res.status).toBe(422);
    expect(res.text).toContain('is not a known city');
  });
});
