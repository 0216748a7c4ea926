import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseLanguage } from '../src/i18n/languages.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * A page's own language is `hl`; `lang` is the event-language filter there as in every output (docs/pages.md,
 * Languages), so a page can be French and list the events held in German.
 */
describe('the page language (hl) and the event-language filter (lang) on pages', () => {
  let server: TestServer;
  let germanEvent: string;

  /** The titles a search page lists, in order. */
  const titles = (page: string) => [...page.matchAll(/<h3[^>]*><a href="[^"]*">([^<]+)<\/a><\/h3>/g)].map((m) => m[1]);
  /** What a search page says it looked for. */
  const understood = (page: string) => /<p class="understood"[^>]*>([^<]*)</.exec(page)?.[1];
  /** The language switcher's links, by language, unescaped. */
  const switcher = (page: string): Record<string, string> =>
    Object.fromEntries(
      [...page.matchAll(/<a href="([^"]+)" hreflang="(\w+)" lang="\w+"/g)].map((m) => [
        m[2],
        (m[1] ?? '').replace(/&amp;/g, '&'),
      ]),
    );
  // Node's fetch says `Accept-Language: *` unless told: no preference, as a crawler or curl.
  const get = (path: string, acceptLanguage = '*') =>
    request(`${server.base}${path}`, { headers: { 'accept-language': acceptLanguage } });

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-11-23T09:00:00Z' });
    const key = await server.createKey('Polyglot Hosts', 'ch');
    for (const [externalId, title, language] of [
      ['de', 'Rust Stammtisch', 'de'],
      ['fr', 'Apéro Rust', 'fr'],
      ['en', 'Rust Night', 'en'],
      ['none', 'Rust Open Space', undefined],
    ] as const) {
      const json = { externalId, title, startAt: '2026-12-03T18:30:00+01:00', city: 'Zürich', language };
      const res = await request(`${server.base}/api/events`, { key, json });
      expect(res.status).toBe(201);
    }
    const held = await request(`${server.base}/api/events?country=ch&lang=de`);
    germanEvent = new URL(held.body.events[0].url).pathname;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('chooses hl, else Accept-Language, else the one language lang filters by, else English', () => {
    expect(chooseLanguage('fr', 'de', 'it')).toEqual({ lang: 'fr', explicit: true });
    expect(chooseLanguage(undefined, 'de-CH', 'it')).toEqual({ lang: 'de', explicit: false });
    expect(chooseLanguage(undefined, '*', 'it')).toEqual({ lang: 'it', explicit: false });
    expect(chooseLanguage(undefined, 'ja, es;q=0.8', 'de')).toEqual({ lang: 'de', explicit: false });
    expect(chooseLanguage(undefined, undefined, 'de,fr')).toEqual({ lang: 'en', explicit: false });
    expect(chooseLanguage('xx', undefined, undefined)).toEqual({ lang: 'en', explicit: false });
  });

  it('a page with hl=de is in German, depends on its URL only, and lists every event', async () => {
    const page = await get('/ch?q=rust&hl=de', 'fr');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html lang="de">');
    expect(page.headers.get('content-language')).toBe('de');
    expect(page.headers.get('vary') ?? '').not.toMatch(/accept-language/i);
    expect(titles(page.text).sort()).toEqual(['Apéro Rust', 'Rust Night', 'Rust Open Space', 'Rust Stammtisch']);
    expect(page.text).toContain('<input type="hidden" name="hl" value="de">');
  });

  it('a page with lang=de lists only the events held in German and says so', async () => {
    const english = await get('/ch?q=rust&lang=de', 'en-GB');
    expect(english.status).toBe(200);
    expect(english.text).toContain('<html lang="en">');
    expect(titles(english.text)).toEqual(['Rust Stammtisch']);
    expect(understood(english.text)).toContain('held in German');
    // Its outputs carry the filter on.
    expect(english.text).toContain(`${server.base}/api/events?country=ch&amp;q=rust&amp;lang=de"`);
    // With no language preferred (a crawler, a link from before hl), the page is in the language of its events.
    const plain = await get('/ch?q=rust&lang=de');
    expect(plain.text).toContain('<html lang="de">');
    expect(plain.headers.get('vary')).toMatch(/accept-language/i);
    expect(titles(plain.text)).toEqual(['Rust Stammtisch']);
    expect(understood(plain.text)).toContain('auf Deutsch');
    const two = await get('/ch?q=rust&lang=de,fr');
    expect(two.text).toContain('<html lang="en">');
    expect(titles(two.text).sort()).toEqual(['Apéro Rust', 'Rust Stammtisch']);
  });

  it('hl=fr&lang=de is a French page of German-language events', async () => {
    const page = await get('/ch?q=rust&hl=fr&lang=de', 'de');
    expect(page.text).toContain('<html lang="fr">');
    expect(page.headers.get('content-language')).toBe('fr');
    expect(titles(page.text)).toEqual(['Rust Stammtisch']);
    expect(understood(page.text)).toContain('en allemand');
    expect(page.text).toContain(`${germanEvent}?hl=fr"`);
  });

  it('links the same page in each language with hl, keeping every filter', async () => {
    const page = await get('/ch?q=rust&lang=de&hl=fr');
    const links = switcher(page.text);
    expect(Object.keys(links).sort()).toEqual(['de', 'en', 'fr', 'it']);
    for (const [hl, href] of Object.entries(links)) {
      const url = new URL(href, server.base);
      expect([hl, url.pathname]).toEqual([hl, '/ch']);
      expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'rust', lang: 'de', hl });
    }
    const italian = await get(links.it!);
    expect(italian.text).toContain('<html lang="it">');
    expect(titles(italian.text)).toEqual(['Rust Stammtisch']);
    expect(page.text).toMatch(/<link rel="alternate" hreflang="de" href="[^"]*\/ch\?[^"]*lang=de&amp;hl=de">/);
  });

  it('an event page takes hl, and a link from before hl keeps its language for a reader without one', async () => {
    expect((await get(`${germanEvent}?hl=fr`, 'de')).text).toContain('<html lang="fr">');
    expect((await get(`${germanEvent}?lang=de`)).text).toContain('<html lang="de">');
    expect((await get(`${germanEvent}?lang=de`, 'it')).text).toContain('<html lang="it">');
  });

  it('keeps the filters the form has no field for when it is sent again', async () => {
    const page = (await get('/?q=Rust&hl=en&lang=de&cfp=open&from=2026-12-01&city=Z%C3%BCrich')).text;
    const form = /<form class="search"[\s\S]*?<\/form>/.exec(page)![0];
    const hidden = Object.fromEntries(
      [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
    );
    // The fields it shows (q, city) are not sent twice; the rest ride along, so a new search keeps them.
    expect(hidden).toEqual({ hl: 'en', lang: 'de', cfp: 'open', from: '2026-12-01' });
  });
});
