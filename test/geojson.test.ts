import { check } from '@placemarkio/check-geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** GET /api/events.geojson: the query's matches as RFC 7946 GeoJSON, checked with @placemarkio/check-geojson. */
describe('GeoJSON', () => {
  let server: TestServer;
  let key: string;
  const post = (json: Record<string, unknown>) => request(`${server.base}/api/events`, { key, json });

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-11-23T09:00:00Z' });
    key = await server.createKey('Map Hosts', 'de');
    const at = (day: number) => `2026-12-${day}T18:30:00+01:00`;
    for (const e of [
      { externalId: 'm-1', title: 'Munich Go Night', startAt: at(10), city: 'München' },
      {
        externalId: 'm-2',
        title: 'Hamburg Cloud Evening',
        startAt: at(11),
        city: 'Hamburg',
        lat: 53.5503,
        lng: 9.9934,
      },
      { externalId: 'm-3', title: 'Online Kotlin Hour', startAt: at(12), format: 'online', country: 'de' },
    ]) {
      expect((await post(e)).status, e.title).toBe(201);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a FeatureCollection with longitude first, each point saying what it is', async () => {
    const res = await request(`${server.base}/api/events.geojson?country=de`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/geo+json; charset=utf-8');
    const collection = check(res.text);
    expect(collection.type).toBe('FeatureCollection');
    const doc = JSON.parse(res.text);
    expect(doc.crs).toBeUndefined();
    const byTitle = new Map(doc.features.map((f: { properties: { title: string } }) => [f.properties.title, f]));
    const munich = byTitle.get('Munich Go Night') as any;
    expect(munich.type).toBe('Feature');
    expect(munich.geometry.type).toBe('Point');
    const [lng, lat] = munich.geometry.coordinates;
    // München lies at about 11.6° E, 48.1° N: longitude first.
    expect(lng).toBeCloseTo(11.58, 1);
    expect(lat).toBeCloseTo(48.14, 1);
    expect(munich.properties).toMatchObject({ precision: 'city', city: 'München', country: 'de' });
    expect(munich.properties.url).toBe(`${server.base}/de/events/${munich.id}`);
    const hamburg = byTitle.get('Hamburg Cloud Evening') as any;
    expect(hamburg.geometry.coordinates).toEqual([9.9934, 53.5503]);
    expect(hamburg.properties.precision).toBe('exact');
    // Online: a feature without a place (RFC 7946 §3.2 allows a null geometry).
    const online = byTitle.get('Online Kotlin Hour') as any;
    expect(online.geometry).toBeNull();
    expect(online.properties.precision).toBe('none');
    for (const f of doc.features) {
      if (!f.geometry) continue;
      const [x, y] = f.geometry.coordinates;
      expect(x).toBeGreaterThanOrEqual(-180);
      expect(x).toBeLessThanOrEqual(180);
      expect(y).toBeGreaterThanOrEqual(-90);
      expect(y).toBeLessThanOrEqual(90);
    }
  });

  it('takes the query grammar, with pages, and refuses bad parameters as a problem', async () => {
    const one = await request(`${server.base}/api/events.geojson?country=de&limit=1`);
    expect(JSON.parse(one.text).features).toHaveLength(1);
    const next = one.headers.get('link')!.match(/<([^>]+)>; rel="next"/)![1]!;
    const second = await request(next);
    expect(JSON.parse(second.text).features).toHaveLength(1);
    const city = await request(`${server.base}/api/events.geojson?country=de&city=Hamburg`);
    expect(JSON.parse(city.text).features.map((f: any) => f.properties.title)).toEqual(['Hamburg Cloud Evening']);
    const bad = await request(`${server.base}/api/events.geojson?limit=0`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('limit');
  });
});
