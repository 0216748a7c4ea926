import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPIC_SLUGS } from '../src/catalogue/taxonomy.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Each route says what it is (http/route-class.ts), and caching follows from that alone: every output of the query
 * grammar is kept by the response cache and public, someone's own answers are kept by nobody, documents for an hour.
 */
describe('route classes', () => {
  let server: TestServer;
  let id: string;
  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-11-20T09:00:00Z', env: { SEED: '1' } });
    id = (await request(`${server.base}/api/events?country=ch&limit=1`)).body.events[0].id;
    // The catalogue seeded and indexed, nothing moves any more: a kept answer stays current.
    while ((await request(`${server.base}/readyz`)).status !== 200) await new Promise((r) => setTimeout(r, 100));
  }, 60_000);
  afterAll(() => server?.close());

  const hits = async () => {
    const text = await (await fetch(`${server.base}/metrics`)).text();
    return Number(/^response_cache_lookups_total\{result="hit"\} (\d+)/m.exec(text)?.[1] ?? 0);
  };
  const cacheControl = async (path: string) => (await request(`${server.base}${path}`)).headers.get('cache-control');

  it('keeps every output of the query grammar in the response cache, for GET and HEAD, and public', async () => {
    const outputs = [
      '/',
      '/ch',
      `/ch/events/${id}`,
      `/ch/events/${id}.ics`,
      '/ch.md',
      '/ch.atom',
      '/ch/cities/zurich.md',
      `/ch/topics/${TOPIC_SLUGS[0]}.atom`,
      '/api/events?country=ch',
      `/api/events/${id}`,
      '/api/events.geojson?country=ch',
      '/api/md?country=ch',
      '/api/calendar?country=ch',
      '/api/feed?country=ch',
    ];
    for (const path of outputs) {
      // The cache keeps what is asked for a second time (SecondSight); the third is answered from it.
      expect([path, (await request(`${server.base}${path}`)).status]).toEqual([path, 200]);
      await request(`${server.base}${path}`);
      const before = await hits();
      const again = await request(`${server.base}${path}`);
      // Feeds and calendars say their own max-age; the rest as their class declares (checked below).
      expect([path, again.headers.get('cache-control')]).toEqual([
        path,
        expect.stringMatching(/^public, max-age=\d+$/),
      ]);
      // A HEAD is a GET without its body: answered from the same kept body.
      await request(`${server.base}${path}`, { method: 'HEAD' });
      expect([path, (await hits()) - before]).toEqual([path, 2]);
    }
  });

  it('gives the declared max-age: a listing a minute, an event and a calendar five, an Atom feed fifteen', async () => {
    expect(await cacheControl('/api/md?country=ch')).toBe('public, max-age=60');
    expect(await cacheControl('/api/calendar?country=ch')).toBe('public, max-age=300');
    expect(await cacheControl('/ch.atom')).toBe('public, max-age=900');
    expect(await cacheControl(`/api/events/${id}`)).toBe('public, max-age=300');
    expect(await cacheControl(`/ch/events/${id}`)).toBe('public, max-age=300');
  });

  it('keeps nobody’s own answers anywhere, operations neither; documents are reused for an hour', async () => {
    for (const path of ['/me', '/api/me', `/api/events/${id}/rsvp`, '/healthz', '/readyz', '/metrics'])
      expect([path, await cacheControl(path)]).toEqual([path, 'private, no-store']);
    for (const path of ['/api/openapi.json', '/docs/json', '/problems/rate-limited'])
      expect([path, await cacheControl(path)]).toEqual([path, 'public, max-age=3600']);
    const before = await hits();
    await request(`${server.base}/me`);
    await request(`${server.base}/me`);
    expect(await hits()).toBe(before);
  });
});
