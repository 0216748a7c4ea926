import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium } from './helpers/browser.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * The `<tech-events>` element, loaded by a page of another origin whose CSP allows only the service for scripts and
 * connections, in Chromium.
 */
describe.skipIf(browserMissing)('the embeddable list', () => {
  let server: TestServer;
  let host: Server;
  let hostBase: string;
  let browser: Browser;

  /** A host page loading the element as a classic deferred script, or as a module (as web components usually are). */
  const hostPage = (body: string, options: { dark?: boolean; module?: boolean; lang?: string } = {}) => `<!doctype html>
<html${options.lang === '' ? '' : ` lang="${options.lang ?? 'en'}"`}><head><meta charset="utf-8"><title>A meetup's own site</title>
${options.dark ? '<link rel="stylesheet" href="/dark.css">' : ''}
<script ${options.module ? 'type="module"' : 'defer'} src="${server.base}/embed.js"></script></head>
<body><h1>Our events</h1>${body}</body></html>`;

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-11-23T09:00:00Z' });
    const key = await server.createKey('Embed Hosts', 'ch');
    for (const [externalId, title, price] of [
      ['e-1', 'Zürich AI Evening', { price: 'free', language: 'de' }],
      ['e-2', 'Zürich Cloud Night', { price: 'paid', priceAmount: 12.5 }],
    ] as const) {
      const res = await request(`${server.base}/api/events`, {
        key,
        json: { externalId, title, startAt: '2026-12-10T18:30:00+01:00', city: 'Zürich', ...price },
      });
      expect(res.status).toBe(201);
    }
    const winterthur = await request(`${server.base}/api/events`, {
      key,
      json: {
        externalId: 'e-3',
        title: 'Winterthur DevOps Day',
        startAt: '2026-12-11T09:00:00+01:00',
        city: 'Winterthur',
        venue: 'ZHAW, Technikumstrasse 9, 8400 Winterthur, Switzerland',
      },
    });
    expect(winterthur.status).toBe(201);
    const pages: Record<string, string> = {
      '/de': hostPage('<tech-events country="ch" city="Zürich" hl="de"></tech-events>'),
      '/de-module': hostPage('<tech-events country="ch" city="Zürich" hl="de"></tech-events>', { module: true }),
      '/fr': hostPage('<tech-events country="ch" city="Zürich" hl="fr" limit="1"></tech-events>', { dark: true }),
      '/winterthur': hostPage('<tech-events country="ch" city="Winterthur" hl="en"></tech-events>'),
      // lang is the event-language filter, as in the grammar; hl the list's language.
      '/held-in-german': hostPage('<tech-events country="ch" city="Zürich" hl="fr" lang="de"></tech-events>'),
      // A snippet from before hl, on a host page that names no language: the filter's language is the list's.
      '/old-snippet': hostPage('<tech-events country="ch" city="Zürich" lang="de"></tech-events>', { lang: '' }),
      '/none': hostPage('<tech-events country="at" city="Graz" topic="quantum" hl="en"></tech-events>'),
    };
    // A second origin: its CSP allows scripts and connections from the service only, styles from itself only.
    host = createServer((req, res) => {
      if (req.url === '/dark.css') {
        res.writeHead(200, { 'content-type': 'text/css' }).end(':root { color-scheme: dark; background: #000; }');
        return;
      }
      const page = pages[req.url ?? ''];
      if (!page) return void res.writeHead(404).end();
      res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': `default-src 'none'; script-src ${server.base}; connect-src ${server.base}; style-src 'self'`,
        })
        .end(page);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostBase = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (host) await new Promise((resolve) => host.close(resolve));
    await server?.close();
  });

  async function open(path: string) {
    const page = await browser.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${hostBase}${path}`);
    return { page, requests, problems };
  }

  it('is small: at most 6 kB gzipped', async () => {
    const res = await fetch(`${server.base}/embed.js`);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(gzipSync(bytes, { level: 9 }).length).toBeLessThanOrEqual(6 * 1024);
  });

  it.each([
    ['a classic script', '/de'],
    ['a module script', '/de-module'],
  ])(
    'renders the events in German on another origin under a strict CSP, asking only the service, loaded as %s',
    async (_, path) => {
      const { page, requests, problems } = await open(path);
      const items = page.locator('tech-events li');
      await expect.poll(() => items.count()).toBe(2);
      const texts = await items.allTextContents();
      expect(texts.join('\n')).toContain('Zürich AI Evening');
      expect(texts.join('\n')).toContain('Kostenlos');
      expect(texts.join('\n')).toMatch(/12,50\sCHF/);
      expect(texts[0]).toMatch(/Do\.?, 10\. Dez\. 2026 · 18:30/);
      const link = page.locator('tech-events a.t').first();
      expect(await link.getAttribute('href')).toMatch(new RegExp(`^${server.base}/ch/events/.+\\?hl=de$`));
      const more = page.locator('tech-events a.more');
      expect(await more.textContent()).toBe('Diese Suche auf tech-events');
      expect(await more.getAttribute('href')).toBe(`${server.base}/?country=ch&city=Z%C3%BCrich&hl=de`);
      expect(problems).toEqual([]);
      for (const url of requests) expect(url.startsWith(hostBase) || url.startsWith(server.base), url).toBe(true);
      expect(requests).toContain(`${server.base}/api/events?country=ch&city=Z%C3%BCrich&limit=10`);
      await page.close();
    },
  );

  it('answers a cross-origin module load: CORS-open, JavaScript, loadable by isolated pages, naming the service', async () => {
    const res = await fetch(`${server.base}/embed.js`, { headers: { origin: hostBase } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const script = await res.text();
    // The service's own base URL, whatever page loads it; nothing taken from the host page's address.
    expect(script).toContain(`var BASE = ${JSON.stringify(server.base)};`);
    expect(script).not.toMatch(/location\.href|currentScript|import\.meta/);
    // The element's reads are CORS-open too, without a preflight (Accept is a safelisted header).
    const list = await fetch(`${server.base}/api/events?country=ch&limit=1`, {
      headers: { origin: hostBase, accept: 'application/json' },
    });
    expect(list.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('speaks French, keeps to its limit and follows a dark host page', async () => {
    const { page, problems } = await open('/fr');
    await expect.poll(() => page.locator('tech-events li').count()).toBe(1);
    expect(await page.locator('tech-events li').textContent()).toMatch(/Gratuit|CHF/);
    expect(await page.locator('tech-events a.more').textContent()).toBe('Cette recherche sur tech-events');
    const color = await page
      .locator('tech-events a.t')
      .evaluate(
        (a) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(a).color,
      );
    // The dark link colour (#8ab4f8), not the light one (#0b57d0).
    expect(color).toBe('rgb(138, 180, 248)');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('names the place once when the venue’s address already ends in the city', async () => {
    const { page, problems } = await open('/winterthur');
    const item = page.locator('tech-events li');
    await expect.poll(() => item.count()).toBe(1);
    const meta = await item.locator('div.m').nth(1).textContent();
    expect(meta).toMatch(/^ZHAW, Technikumstrasse 9, 8400 Winterthur, Switzerland · /);
    expect(meta).not.toContain('Switzerland, Winterthur');
    // The Zürich events have no venue: their city stays.
    const { page: zurich } = await open('/de');
    await expect.poll(() => zurich.locator('tech-events li').count()).toBe(2);
    expect(await zurich.locator('tech-events li div.m').nth(1).textContent()).toMatch(/^Zürich · /);
    expect(problems).toEqual([]);
    await Promise.all([page.close(), zurich.close()]);
  });

  it('filters by the language events are held in with lang, and speaks the language hl names', async () => {
    const { page, requests, problems } = await open('/held-in-german');
    const items = page.locator('tech-events li');
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.textContent()).toContain('Zürich AI Evening');
    expect(await items.textContent()).toContain('Gratuit');
    expect(requests).toContain(`${server.base}/api/events?country=ch&city=Z%C3%BCrich&lang=de&limit=10`);
    expect(await page.locator('tech-events a.t').getAttribute('href')).toMatch(/\?hl=fr$/);
    expect(await page.locator('tech-events a.more').getAttribute('href')).toBe(
      `${server.base}/?country=ch&city=Z%C3%BCrich&lang=de&hl=fr`,
    );
    // Changing hl redraws the same events in another language; removing lang lists them all.
    await page.locator('tech-events').evaluate((el) => el.setAttribute('hl', 'it'));
    await expect.poll(() => page.locator('tech-events a.more').textContent()).toBe('Questa ricerca su tech-events');
    await page.locator('tech-events').evaluate((el) => el.removeAttribute('lang'));
    await expect.poll(() => items.count()).toBe(2);
    const old = await open('/old-snippet');
    await expect.poll(() => old.page.locator('tech-events li').count()).toBe(1);
    expect(await old.page.locator('tech-events a.more').textContent()).toBe('Diese Suche auf tech-events');
    expect([...problems, ...old.problems]).toEqual([]);
    await Promise.all([page.close(), old.page.close()]);
  });

  it('says plainly when nothing matches', async () => {
    const { page, problems } = await open('/none');
    const none = page.locator('tech-events p.none');
    await expect.poll(() => none.count()).toBe(1);
    expect(await none.textContent()).toBe('No upcoming events match this search.');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('is offered on every search page with the snippet for its query', async () => {
    const page = await request(`${server.base}/ch?city=Z%C3%BCrich&hl=de`);
    expect(page.text).toContain('<summary>Diese Liste einbetten</summary>');
    expect(page.text).toContain(
      `&lt;script src=&quot;${server.base}/embed.js&quot; defer&gt;&lt;/script&gt;\n&lt;tech-events country=&quot;ch&quot; city=&quot;Zürich&quot; hl=&quot;de&quot;&gt;&lt;/tech-events&gt;`,
    );
    // The event-language filter is an attribute of its own, beside the list's language.
    const filtered = await request(`${server.base}/ch?city=Z%C3%BCrich&lang=de&hl=fr`);
    expect(filtered.text).toContain(
      `&lt;tech-events country=&quot;ch&quot; city=&quot;Zürich&quot; lang=&quot;de&quot; hl=&quot;fr&quot;&gt;&lt;/tech-events&gt;`,
    );
  });
});
