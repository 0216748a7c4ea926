import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, seriousViolations } from './helpers/browser.js';
import { request } from './helpers/http.js';
import { ROOT } from './helpers/process.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const SCREENSHOTS = join(ROOT, 'test-output');

describe.skipIf(browserMissing)('the map', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-11-23T09:00:00Z' });
    const key = await server.createKey('Map Hosts', 'de');
    const events = [
      ['Berlin', 'Berlin Go Night'],
      ['Berlin', 'Berlin Data Evening'],
      ['Hamburg', 'Hamburg Cloud Evening'],
      ['München', 'Munich Rust Night'],
      ['Köln', 'Cologne Web Evening'],
    ];
    for (const [i, [city, title]] of events.entries()) {
      const startAt = `2026-12-${10 + i}T18:30:00+01:00`;
      const res = await request(`${server.base}/api/events`, {
        key,
        json: { externalId: `m-${i}`, title, startAt, city },
      });
      expect(res.status).toBe(201);
    }
    const online = { externalId: 'online', title: 'Online Kotlin Hour', startAt: '2026-12-20T18:30:00+01:00' };
    expect((await request(`${server.base}/api/events`, { key, json: { ...online, format: 'online' } })).status).toBe(
      201,
    );
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows a marker per city on the de page, linking its list, from the service alone', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const response = await page.goto(`${server.base}/de?hl=de`);
    expect(response?.status()).toBe(200);
    const markers = page.locator('figure.map svg a');
    expect(await markers.count()).toBe(4);
    const labels = await markers.evaluateAll((links) => links.map((a) => a.getAttribute('aria-label')));
    expect(labels).toContain('Berlin: 2 Veranstaltungen');
    expect(labels).toContain('Hamburg: 1 Veranstaltung');
    const berlin = page.locator('figure.map a[aria-label^="Berlin"]');
    expect(await berlin.getAttribute('href')).toBe('/de?city=Berlin&hl=de');
    // The caption is the text alternative: every place with its count, busiest first.
    expect(await page.locator('figure.map figcaption').textContent()).toMatch(
      /^Wo diese .*: Berlin: 2 Veranstaltungen · /,
    );
    // Each place is named on the map, beside its marker.
    expect(await page.locator('figure.map text.place').allTextContents()).toEqual(
      expect.arrayContaining(['Berlin', 'Hamburg', 'München', 'Köln']),
    );
    // The view fits the listed places: every marker and every name inside the map's box, which fills the figure.
    const frame = (await page.locator('figure.map svg').boundingBox())!;
    expect(frame.width).toBeGreaterThan((await page.locator('figure.map').boundingBox())!.width - 1);
    for (const mark of await page.locator('figure.map circle, figure.map text.place').all()) {
      const b = (await mark.boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(frame.x);
      expect(b.y).toBeGreaterThanOrEqual(frame.y);
      expect(b.x + b.width).toBeLessThanOrEqual(frame.x + frame.width);
      expect(b.y + b.height).toBeLessThanOrEqual(frame.y + frame.height);
    }
    // Berlin lies north-east of München: up and to the right on the map.
    const box = async (label: string) =>
      (await page.locator(`figure.map a[aria-label^="${label}"] circle`).boundingBox())!;
    const [b, m] = [await box('Berlin'), await box('München')];
    expect(b.x).toBeGreaterThan(m.x);
    expect(b.y).toBeLessThan(m.y);
    // Reachable by keyboard: tabbing reaches each marker.
    let reached = 0;
    for (let i = 0; i < 80 && reached < 4; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(
        () =>
          (
            globalThis as unknown as { document: { activeElement: { closest(s: string): unknown } | null } }
          ).document.activeElement?.closest('figure.map svg a') != null,
      );
      if (focused) reached++;
    }
    expect(reached).toBe(4);
    // The base map is drawn: the image loaded from the service itself.
    expect(requests.some((url) => url === `${server.base}/assets/map.svg`)).toBe(true);
    for (const url of requests) expect(url.startsWith(server.base), url).toBe(true);
    await page.locator('figure.map').screenshot({ path: join(SCREENSHOTS, 'map-de.png') });
    await page.close();
  });

  it('zooms to one place with its surroundings, not to all three countries', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.base}/de?hl=de&city=Hamburg`);
    const view = (await page.locator('figure.map svg').getAttribute('viewBox'))!.split(' ').map(Number);
    // The base map is 640 units across (the three countries); one city is shown about 200 km across.
    expect(view[2]).toBeLessThan(160);
    expect(view[2]).toBeGreaterThanOrEqual(100);
    const frame = (await page.locator('figure.map svg').boundingBox())!;
    const marker = (await page.locator('figure.map circle').boundingBox())!;
    const middle = { x: marker.x + marker.width / 2, y: marker.y + marker.height / 2 };
    expect(Math.abs(middle.x - (frame.x + frame.width / 2))).toBeLessThan(frame.width / 4);
    expect(Math.abs(middle.y - (frame.y + frame.height / 2))).toBeLessThan(frame.height / 4);
    await expect(page.locator('figure.map text.place').allTextContents()).resolves.toEqual(['Hamburg']);
    await page.locator('figure.map').screenshot({ path: join(SCREENSHOTS, 'map-de-hamburg.png') });
    await page.close();
  });

  it('is axe-clean, beside the list on a wide screen and above it on a phone', async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const context = await browser.newContext({ bypassCSP: true, viewport });
      const page = await context.newPage();
      await page.goto(`${server.base}/de?hl=en`);
      expect(await seriousViolations(page)).toEqual([]);
      const map = (await page.locator('figure.map').boundingBox())!;
      const first = (await page.locator('section.day li, ol.results > li').first().boundingBox())!;
      if (viewport.width > 1000) {
        expect(map.x).toBeGreaterThan(first.x + first.width); // to the right of the list
        expect(map.y).toBeLessThan(first.y + first.height); // and level with its start
      } else expect(map.y + map.height).toBeLessThanOrEqual(first.y); // above the list
      await context.close();
    }
  });

  it('adds little weight: the base map is one cached SVG', async () => {
    const svg = await fetch(`${server.base}/assets/map.svg`);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get('cache-control')).toBe('public, max-age=86400');
    const body = Buffer.from(await svg.arrayBuffer());
    expect(gzipSync(body).length).toBeLessThan(16 * 1024);
    const page = await request(`${server.base}/de?hl=en`);
    const figure = page.text.slice(page.text.indexOf('<figure class="map"'), page.text.indexOf('</figure>') + 9);
    expect(figure.length).toBeLessThan(4 * 1024);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
  });
});
