import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventDetailSchema } from '../src/render/event-json.js';
import { ownEventsResponseSchema } from '../src/render/own-events-json.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { submission } from './helpers/submission.js';

/** GET /api/events/<id> (one event as JSON) and a host's own list (`mine=1`), through real HTTP. */
describe('one event as JSON, and a host’s own list', () => {
  let server: TestServer;
  let zurich: string;
  let berlin: string;
  let api: string;

  const cacheLookups = async () => {
    const text = (await request(`${server.base}/metrics`)).text;
    const count = (result: string) =>
      Number(text.match(new RegExp(`^response_cache_lookups_total\\{result="${result}"\\} (\\d+)`, 'm'))?.[1] ?? 0);
    return { hit: count('hit'), miss: count('miss') };
  };

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-11-23T09:00:00Z' });
    zurich = await server.createKey('Zürich Cloud Society', 'ch');
    berlin = await server.createKey('Berlin Cloud Society', 'de');
    api = `${server.base}/api/events`;
    const write = async (key: string, overrides: Record<string, unknown>) => {
      const res = await request(api, { key, json: submission(overrides) });
      expect(res.status, res.text).toBe(201);
    };
    await write(zurich, { externalId: 'zh-1', title: 'Cloud Night', description: 'Kubernetes in production.' });
    await write(berlin, { externalId: 'be-1', title: 'Cloud Night', city: 'Berlin', venue: 'c-base' });
    await write(zurich, { externalId: 'zh-2', title: 'Cloud Unlisted', visibility: 'unlisted' });
  });
  afterAll(() => server?.close());

  it('answers a list item with its lifecycle and description, CORS-open and cached like the event page', async () => {
    const list = await request(`${api}?country=ch`);
    const { matchReasons: _, ...item } = list.body.events.find((e: { id: string }) => e.id === 'cloud-night');

    const res = await request(`${api}/cloud-night`, { headers: { origin: 'https://meetup.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    // The list item's shape and values, plus the state and the text its page shows; nothing else.
    expect(eventDetailSchema.strict().parse(res.body)).toEqual({
      ...item,
      matchReasons: [],
      lifecycle: 'listed',
      description: 'Kubernetes in production.',
    });
    expect(res.body.url).toBe(`${server.base}/ch/events/cloud-night`);

    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${api}/cloud-night`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('names events of every country by id alone: the same title in Berlin is another id', async () => {
    const res = await request(`${api}/cloud-night-2`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Cloud Night', city: 'Berlin', organizer: 'Berlin Cloud Society' });
    expect(res.body.url).toBe(`${server.base}/de/events/cloud-night-2`);
    expect(res.body.price.currency).toBe('EUR');
  });

  it('keeps the body in the response cache until the event changes, then answers the cancellation', async () => {
    const url = `${api}/cloud-night`;
    const before = await cacheLookups();
    const bodies: string[] = [];
    for (let i = 0; i < 4; i++) bodies.push((await request(url)).text);
    const after = await cacheLookups();
    // Kept from its second ask (see SecondSight): the third and fourth at the latest are answered from the cache.
    expect(after.hit - before.hit).toBeGreaterThanOrEqual(2);
    expect(new Set(bodies).size).toBe(1);

    const cancel = await request(`${api}?externalId=zh-1`, { method: 'DELETE', key: zurich });
    expect(cancel.status).toBe(200);
    const cancelled = await request(url);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: 'cloud-night', lifecycle: 'cancelled' });
    // Out of the listing, as on its page: still there for whoever has the id.
    expect((await request(`${api}?country=ch`)).body.events.map((e: { id: string }) => e.id)).not.toContain(
      'cloud-night',
    );

    const restore = await request(api, { key: zurich, json: { action: 'restore', externalId: 'zh-1' } });
    expect(restore.status).toBe(200);
    expect((await request(url)).body.lifecycle).toBe('listed');
  });

  it('answers an unlisted event to whoever has its id, as its page does', async () => {
    const res = await request(`${api}/cloud-unlisted`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Cloud Unlisted', lifecycle: 'listed' });
    expect(res.body).not.toHaveProperty('visibility');
  });

  it('answers an unknown id with a problem+json 404 (event-not-found), never cached', async () => {
    for (const id of ['no-such-event', 'caf%C3%A9-%F0%9F%8E%89', 'x'.repeat(250)]) {
      const res = await request(`${api}/${id}`, { headers: { origin: 'https://meetup.example' } });
      expect(res.status, id).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.body.type).toBe(`${server.base}/problems/${res.body.code}`);
    }
    const unknown = await request(`${api}/no-such-event`);
    expect(unknown.body).toMatchObject({ code: 'event-not-found', status: 404, detail: 'No event “no-such-event”.' });
  });

  it('lists a host’s own events without calendar or feed links, which would need the key in a URL', async () => {
    const mine = await request(`${api}?mine=1`, { key: zurich });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect(mine.body).not.toHaveProperty('calendar');
    expect(mine.body).not.toHaveProperty('feed');
    const body = ownEventsResponseSchema.strict().parse(mine.body);
    expect(body.events.map((e) => e.id).sort()).toEqual(['cloud-night', 'cloud-unlisted']);
    expect(body.query).toEqual({ country: 'ch', q: '', topics: [], limit: 50, mine: true });
    expect(JSON.stringify(mine.body)).not.toContain(zurich);
    // What docs/api.md offers instead: the public query of the host's organizer name, its listed events.
    const calendar = await request(
      `${server.base}/api/calendar?country=ch&org=${encodeURIComponent('Zürich Cloud Society')}`,
    );
    expect(calendar.status).toBe(200);
    expect(calendar.text).toContain('SUMMARY:Cloud Night');
    expect(calendar.text).not.toContain('Cloud Unlisted');
  });

  it('documents both in OpenAPI', async () => {
    const doc = (await request(`${server.base}/api/openapi.json`)).body;
    const one = doc.paths['/api/events/{id}'].get;
    expect(one.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/EventDetail',
    });
    expect(one.responses['404']).toBeDefined();
    expect(doc.components.schemas.EventDetail.required).toEqual(expect.arrayContaining(['lifecycle', 'description']));
    expect(doc.components.schemas.OwnEventList.properties).not.toHaveProperty('calendar');
    expect(doc.paths['/api/events'].get.responses['200'].content['application/json'].schema.oneOf).toHaveLength(2);
  });
});
