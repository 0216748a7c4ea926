import { parseFeed } from '@rowanmanning/feed-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryId } from '../src/render/atom.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Atom feeds of any query (RFC 4287), read with @rowanmanning/feed-parser as a feed reader would: matches only,
 * newest to the catalogue first, ids stable across syncs, conditional requests, cancellations as updates.
 */
/** RFC 4151 section 2.1's ABNF as a regular expression: tag:authorityName,date:specific[#fragment]. */
const DNS_COMP = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const DNS_NAME = `${DNS_COMP}(?:\\.${DNS_COMP})*`;
const EMAIL = `[A-Za-z0-9._-]+@${DNS_NAME}`;
const DATE = '\\d{4}(?:-\\d{2}(?:-\\d{2})?)?';
const PCHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})";
const TAG_URI = new RegExp(`^tag:(?:${DNS_NAME}|${EMAIL}),${DATE}:(?:${PCHAR}|[/?])*(?:#(?:${PCHAR}|[/?])*)?$`);

describe('Atom entry ids', () => {
  it('are tag URIs by RFC 4151 whatever BASE_URL holds: a port, an IPv6 literal, a non-ASCII name', () => {
    expect(TAG_URI.test('tag:localhost:3000,2026:event:x')).toBe(false);
    for (const base of [
      'http://localhost:3000',
      'https://events.example.ch',
      'http://[::1]:3340',
      'https://zürich.example',
    ]) {
      const id = entryId(base, 'ki-meetup-zürich-(2)');
      expect(id, base).toMatch(TAG_URI);
    }
    expect(entryId('http://localhost:3000', 'a')).toBe('tag:localhost,2026:event:a');
    expect(entryId('https://events.example.ch', 'a')).toBe('tag:events.example.ch,2026:event:a');
  });
});

describe('Atom feeds', () => {
  let server: TestServer;
  let key: string;
  const post = (json: Record<string, unknown>) => request(`${server.base}/api/events`, { key, json });
  const feed = async (path: string, headers: Record<string, string> = {}) => {
    const res = await request(`${server.base}${path}`, { headers });
    return { res, parsed: res.status === 200 ? parseFeed(res.text) : undefined };
  };
  const event = (externalId: string, title: string, city: string, startAt: string, extra = {}) => ({
    externalId,
    title,
    startAt,
    endAt: startAt.replace('T18:30', 'T21:00'),
    city,
    topics: ['ai-ml'],
    price: 'free',
    ...extra,
  });

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-11-23T09:00:00Z' });
    key = await server.createKey('Feed Hosts', 'ch');
    // One after another, so that each comes to the catalogue later than the one before.
    for (const e of [
      event('zh-1', 'Zürich AI Evening', 'Zürich', '2026-12-10T18:30:00+01:00'),
      event('be-1', 'Bern AI Evening', 'Bern', '2026-12-11T18:30:00+01:00'),
      event('zh-2', 'Zürich Rust & <ML> Night', 'Zürich', '2026-12-03T18:30:00+01:00', {
        topics: ['programming-languages'],
      }),
      event('zh-3', 'Zürich Data Breakfast', 'Zürich', '2027-01-14T18:30:00+01:00', { topics: ['data'] }),
    ]) {
      expect((await post(e)).status).toBe(201);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a city as Atom with only its matches, newest to the catalogue first, each titled with date and place', async () => {
    const { res, parsed } = await feed('/ch/cities/zurich.atom');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(parsed!.meta.type).toBe('atom');
    expect(parsed!.title).toMatch(/Zürich/);
    const titles = parsed!.items.map((i) => i.title);
    expect(titles).toEqual([
      'Zürich Data Breakfast · Thu 14 Jan 2027 · 18:30 · Zürich',
      'Zürich Rust & <ML> Night · Thu 3 Dec 2026 · 18:30 · Zürich',
      'Zürich AI Evening · Thu 10 Dec 2026 · 18:30 · Zürich',
    ]);
    const first = parsed!.items[0]!;
    expect(first.url).toMatch(new RegExp(`^${server.base}/ch/events/`));
    expect(first.content).toContain('Price: Free');
    expect(first.content).toContain('Topics: Data');
    expect(first.content).toContain(`href="${first.url}"`);
    expect(first.categories.map((c) => c.term)).toEqual(['data']);
    expect(first.updated).toBeInstanceOf(Date);
    expect(new Set(parsed!.items.map((i) => i.id)).size).toBe(3);
  });

  it('takes the whole query grammar at /api/feed, with limit, and never lists near misses', async () => {
    const { parsed } = await feed('/api/feed?country=ch&city=Z%C3%BCrich&topic=ai-ml&limit=5');
    expect(parsed!.items.map((i) => i.title)).toEqual(['Zürich AI Evening · Thu 10 Dec 2026 · 18:30 · Zürich']);
    const limited = await feed('/api/feed?country=ch&limit=2');
    expect(limited.parsed!.items).toHaveLength(2);
    // Nothing in Graz: the JSON answer offers near misses, the feed is empty.
    const none = await feed('/api/feed?country=at&city=Graz&topic=ai-ml');
    expect(none.parsed!.items).toEqual([]);
  });

  it('keeps each entry id across syncs and answers conditional requests with 304', async () => {
    const before = await feed('/ch/cities/zurich.atom');
    const etag = before.res.headers.get('etag')!;
    const lastModified = before.res.headers.get('last-modified')!;
    expect((await feed('/ch/cities/zurich.atom', { 'if-none-match': etag })).res.status).toBe(304);
    expect((await feed('/ch/cities/zurich.atom', { 'if-modified-since': lastModified })).res.status).toBe(304);
    // The host sends its list again, one event moved: same ids, that entry updated.
    const moved = event('zh-1', 'Zürich AI Evening', 'Zürich', '2026-12-17T18:30:00+01:00');
    expect((await post(moved)).status).toBe(200);
    expect(
      (
        await post(
          event('zh-3', 'Zürich Data Breakfast', 'Zürich', '2027-01-14T18:30:00+01:00', {
            topics: ['data'],
            description: 'Now with croissants.',
          }),
        )
      ).status,
    ).toBe(200);
    const after = await feed('/ch/cities/zurich.atom', { 'if-none-match': etag });
    expect(after.res.status).toBe(200);
    const ids = (items: { id: string | null }[]) => items.map((i) => i.id).sort();
    // The server listens on a port of 127.0.0.1, which stays out of the id.
    for (const id of ids(after.parsed!.items)) expect(id).toMatch(TAG_URI);
    expect(ids(after.parsed!.items)).toEqual(ids(before.parsed!.items));
    const entry = after.parsed!.items.find((i) => i.title?.startsWith('Zürich AI Evening'))!;
    expect(entry.title).toContain('Thu 17 Dec 2026');
    const old = before.parsed!.items.find((i) => i.id === entry.id)!;
    expect(entry.updated!.getTime()).toBeGreaterThan(old.updated!.getTime());
    // A new description is no news to a reader: the entry's `updated` stays (its content shows the new text).
    const edited = after.parsed!.items.find((i) => i.title?.startsWith('Zürich Data Breakfast'))!;
    const unedited = before.parsed!.items.find((i) => i.id === edited.id)!;
    expect(edited.updated!.getTime()).toBe(unedited.updated!.getTime());
  });

  it('shows a cancellation as an update that says so, first, until the event would have started', async () => {
    const before = await feed('/ch/cities/zurich.atom');
    const cancelled = await request(`${server.base}/api/events?externalId=zh-2`, { key, method: 'DELETE' });
    expect(cancelled.status).toBe(200);
    const { parsed } = await feed('/ch/cities/zurich.atom');
    const first = parsed!.items[0]!;
    expect(first.title).toBe('Cancelled: Zürich Rust & <ML> Night · Thu 3 Dec 2026 · 18:30 · Zürich');
    expect(first.content).toContain('Cancelled by the host.');
    const was = before.parsed!.items.find((i) => i.id === first.id)!;
    expect(was.title).toBe('Zürich Rust & <ML> Night · Thu 3 Dec 2026 · 18:30 · Zürich');
    expect(first.updated!.getTime()).toBeGreaterThan(was.updated!.getTime());
    // Not in the JSON answer, which lists what is on.
    const json = await request(`${server.base}/api/events?country=ch&city=Z%C3%BCrich`);
    expect(json.body.events.map((e: { title: string }) => e.title)).not.toContain('Zürich Rust & <ML> Night');
    expect(json.body.feed).toBe(`${server.base}/api/feed?country=ch&city=Z%C3%BCrich`);
  });

  it('says what is wrong with a bad query or path, as a problem', async () => {
    const bad = await request(`${server.base}/api/feed?country=xx`);
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toMatch(/problem\+json/);
    expect(bad.body.errors[0].field).toBe('country');
    const city = await request(`${server.base}/ch/cities/atlantis.atom`);
    expect(city.status).toBe(404);
    expect(city.body.detail).toMatch(/atlantis/);
    const topic = await request(`${server.base}/de/topics/astrology.atom`);
    expect(topic.status).toBe(404);
    expect((await request(`${server.base}/de/topics/ai-ml.atom`)).status).toBe(200);
    expect((await request(`${server.base}/de.atom`)).status).toBe(200);
  });

  it('is linked from the pages, visibly and as <link rel="alternate">', async () => {
    const page = await request(`${server.base}/ch?city=Z%C3%BCrich&hl=de`);
    const href = `${server.base}/api/feed?country=ch&amp;city=Z%C3%BCrich`;
    expect(page.text).toContain(`<link rel="alternate" type="application/atom+xml" title="Atom-Feed" href="${href}">`);
    expect(page.text).toMatch(
      new RegExp(`<a href="${href.replace(/[.?]/g, '\\$&')}" type="application/atom\\+xml">Atom-Feed</a>`),
    );
    const country = await request(`${server.base}/de`);
    expect(country.text).toContain('<link rel="alternate" type="application/atom+xml"');
  });
});
