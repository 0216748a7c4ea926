import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { submission as event } from './helpers/submission.js';

describe.each(ENGINES)('write API on %s', (engine) => {
  let server: TestServer;
  let key: string;
  let otherKey: string;
  let api: string;

  beforeAll(async () => {
    server = await startTestServer(engine, { now: '2026-11-22T12:00:00Z' });
    key = await server.createKey('Zürich AI Society', 'ch');
    otherKey = await server.createKey('Berlin Builders', 'de');
    api = `${server.base}/api/events`;
  });
  afterAll(() => server?.close());

  describe('create and update', () => {
    it('creates an event (201) with a readable slug, then updates it on the same externalId (200)', async () => {
      const created = await request(api, { key, json: event() });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: 'ki-meetup-zurich',
        url: `${server.base}/ch/events/ki-meetup-zurich`,
        created: true,
      });
      expect(created.headers.get('location')).toBe(created.body.url);

      const updated = await request(api, {
        key,
        json: event({ title: 'KI-Meetup Zürich: Winter Edition', capacity: 120 }),
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({ id: 'ki-meetup-zurich', url: created.body.url, created: false });

      const mine = await request(`${api}?mine=1`, { key });
      const stored = mine.body.events.find((e: { id: string }) => e.id === 'ki-meetup-zurich');
      expect(stored.title).toBe('KI-Meetup Zürich: Winter Edition');
      expect(stored.start).toBe('2026-12-03T17:30:00.000Z');
      expect(stored.city).toBe('Zürich');
      expect(stored.geo).toMatchObject({ precision: 'city' });
      expect(stored.price).toEqual({ type: 'free', amount: null, currency: 'CHF' });
      expect(stored.sourceUrl).toBe('https://example.org/ki-meetup');
      expect(stored.source).toBe('host');
      expect(stored.organizer).toBe('Zürich AI Society');
      expect(stored.lifecycle).toBe('listed');
      expect(stored.rsvp).toBe('open');
    });

    it('records every write in the revision log, and an identical resend adds none', async () => {
      await request(api, { key, json: event({ externalId: 'rev-1', title: 'Revision Test' }) });
      await request(api, { key, json: event({ externalId: 'rev-1', title: 'Revision Test' }) });
      const paid = { externalId: 'rev-1', title: 'Revision Test 2', price: 'paid', priceAmount: 12.5 };
      await request(api, { key, json: event(paid) });
      const revisions = await server.service.ctx.events.revisions('revision-test');
      expect(revisions.map((r) => r.action)).toEqual(['create', 'update']);
      expect(revisions.map((r) => r.revision)).toEqual([1, 2]);
      // Each revision holds the event as stored by it: the last one is the event as it is now, to the field.
      const stored = await server.service.ctx.events.findById('revision-test');
      expect(stored!.priceAmount).toBe('12.50');
      expect(revisions.at(-1)!.snapshot).toEqual(JSON.parse(JSON.stringify(stored)));
    });

    it('never duplicates when the same payload arrives many times at once', async () => {
      const body = event({ externalId: 'race-1', title: 'Race Night' });
      const results = await Promise.all(Array.from({ length: 20 }, () => request(api, { key, json: body })));
      expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
      expect(results.filter((r) => r.body.created === true)).toHaveLength(1);
      expect(new Set(results.map((r) => r.body.id))).toEqual(new Set(['race-night']));
      const mine = await request(`${api}?mine=1`, { key });
      expect(mine.body.events.filter((e: { title: string }) => e.title === 'Race Night')).toHaveLength(1);
    });

    it("treats another key's identical externalId as a different event, with a disambiguated slug", async () => {
      const a = await request(api, { key, json: event({ externalId: 'shared-7', title: 'Shared Id Day' }) });
      const b = await request(api, { key: otherKey, json: event({ externalId: 'shared-7', title: 'Shared Id Day' }) });
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(a.body.id).toBe('shared-id-day');
      expect(b.body.id).toBe('shared-id-day-2');
    });

    it('keeps the slug stable when the title changes', async () => {
      const first = await request(api, { key, json: event({ externalId: 'stable', title: 'Rust Zürich' }) });
      const second = await request(api, {
        key,
        json: event({ externalId: 'stable', title: 'Rust Meetup Zürich (new)' }),
      });
      expect(second.body.id).toBe(first.body.id);
      expect(first.body.id).toBe('rust-zurich');
    });

    it('creates a new event for every write without externalId', async () => {
      const { externalId: _, ...anonymous } = event({ title: 'No Id Night' });
      const a = await request(api, { key, json: anonymous });
      const b = await request(api, { key, json: anonymous });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.id).not.toBe(b.body.id);
    });
  });

  describe('country, currency and place', () => {
    it('derives the country from the city in any spelling, and the currency from the country', async () => {
      const cases = [
        ['Genf', 'ch'],
        ['Munich', 'de'],
        ['Wien', 'at'],
        ['Cologne', 'de'],
      ] as const;
      for (const [city, country] of cases) {
        const res = await request(api, {
          key,
          json: event({ externalId: `city-${city}`, title: `Meetup ${city}`, city, price: 'paid', priceAmount: 25.5 }),
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body.url).toContain(`/${country}/events/`);
      }
      const mine = await request(`${api}?mine=1`, { key });
      const munich = mine.body.events.find((e: { title: string }) => e.title === 'Meetup Munich');
      expect(munich.price).toEqual({ type: 'paid', amount: 25.5, currency: 'EUR' });
    });

    it("falls back to the key's home country for online events", async () => {
      const {
        city: _c,
        venue: _v,
        ...online
      } = event({ externalId: 'online-1', title: 'Remote Rust', format: 'online' });
      const res = await request(api, { key: otherKey, json: online });
      expect(res.body.url).toContain('/de/events/');
      const mine = await request(`${api}?mine=1`, { key: otherKey });
      const stored = mine.body.events.find((e: { id: string }) => e.id === res.body.id);
      expect(stored.geo.precision).toBe('country');
      expect(stored.city).toBeUndefined();
    });

    it('accepts an exact point inside the country and refuses one outside', async () => {
      const ok = await request(api, {
        key,
        json: event({ externalId: 'geo-1', title: 'Geo One', lat: 47.3769, lng: 8.5417 }),
      });
      expect(ok.status).toBe(201);
      const mine = await request(`${api}?mine=1`, { key });
      expect(mine.body.events.find((e: { id: string }) => e.id === ok.body.id).geo).toEqual({
        lat: 47.3769,
        lng: 8.5417,
        precision: 'exact',
      });
      const paris = await request(api, {
        key,
        json: event({ externalId: 'geo-2', title: 'Geo Two', lat: 48.8566, lng: 2.3522 }),
      });
      expect(paris.status).toBe(422);
      expect(paris.body.errors).toContainEqual({
        field: 'lat',
        message: expect.stringContaining('not in Switzerland'),
        given: '[48.8566,2.3522]',
      });
    });

    it('places an event at the city its venue address names, not at the centre of the city given', async () => {
      const res = await request(api, {
        key,
        json: event({
          externalId: 'venue-city',
          title: 'DevOps Day Winterthur',
          city: 'Zürich',
          venue: 'Alte Kaserne Winterthur, Technikumstrasse 8, 8400 Winterthur, Switzerland',
        }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const mine = await request(`${api}?mine=1`, { key });
      const stored = mine.body.events.find((e: { id: string }) => e.id === res.body.id);
      expect(stored).toMatchObject({ city: 'Winterthur', geo: { lat: 47.5056, lng: 8.7241, precision: 'city' } });
      // A venue naming no city, or one abroad, leaves the city given.
      const hub = await request(api, { key, json: event({ externalId: 'venue-hub', venue: 'Impact Hub, Bar' }) });
      const munich = await request(api, {
        key,
        json: event({ externalId: 'venue-abroad', venue: 'Messe, 81823 München' }),
      });
      const after = (await request(`${api}?mine=1`, { key })).body.events;
      for (const id of [hub.body.id, munich.body.id]) {
        expect(after.find((e: { id: string }) => e.id === id)).toMatchObject({ city: 'Zürich' });
      }
    });

    it('refuses a city outside ch/de/at, and a city that contradicts the country', async () => {
      const paris = await request(api, { key, json: event({ externalId: 'paris', city: 'Paris' }) });
      expect(paris.status).toBe(422);
      expect(paris.body.errors[0].field).toBe('city');
      const mismatch = await request(api, { key, json: event({ externalId: 'mm', city: 'Berlin', country: 'ch' }) });
      expect(mismatch.status).toBe(422);
      expect(mismatch.body.errors[0]).toEqual({
        field: 'city',
        message: 'is in de, not in ch: give a city of ch, or the country it is in',
        given: '"Berlin"',
      });
    });
  });

  describe('keys', () => {
    it('answers a missing key with 401 and WWW-Authenticate: Bearer', async () => {
      const res = await request(api, { json: event() });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.body.code).toBe('missing-key');
    });

    it('answers an unknown, malformed or revoked key with 401', async () => {
      const forged = `${key.slice(0, -4)}AAAA`;
      for (const bad of [forged, 'tev_nonsense', 'hello']) {
        const res = await request(api, { key: bad, json: event() });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('invalid-key');
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*invalid_token/);
      }
      const { record, key: doomed } = await server.service.ctx.keys.create('Doomed', 'ch');
      expect((await request(api, { key: doomed, json: event({ externalId: 'doomed' }) })).status).toBe(201);
      await server.service.ctx.keys.revoke(record.id);
      expect((await request(api, { key: doomed, json: event({ externalId: 'doomed' }) })).status).toBe(401);
    });

    it('refuses a key in the query string', async () => {
      const res = await request(`${api}?mine=1&api_key=${encodeURIComponent(key)}`);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/never accepted in the query string/);
    });

    it('needs a key for mine=1', async () => {
      const res = await request(`${api}?mine=1`);
      expect(res.status).toBe(401);
    });
  });

  describe('cancel and restore', () => {
    it('cancels by DELETE ?externalId, restores by action, exactly as it was', async () => {
      const created = await request(api, {
        key,
        json: event({ externalId: 'lc-1', title: 'Lifecycle One', visibility: 'unlisted' }),
      });
      const before = (await request(`${api}?mine=1`, { key })).body.events.find(
        (e: { id: string }) => e.id === created.body.id,
      );

      const cancelled = await request(`${api}?externalId=lc-1`, { key, method: 'DELETE' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toEqual({ id: created.body.id, cancelled: true, reversible: true });
      const during = (await request(`${api}?mine=1`, { key })).body.events.find(
        (e: { id: string }) => e.id === created.body.id,
      );
      expect(during.lifecycle).toBe('cancelled');

      const again = await request(`${api}?externalId=lc-1`, { key, method: 'DELETE' });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ cancelled: true, detail: expect.stringMatching(/already cancelled/) });

      const restored = await request(api, { key, json: { action: 'restore', externalId: 'lc-1' } });
      expect(restored.status).toBe(200);
      expect(restored.body).toEqual({ id: created.body.id, url: created.body.url, restored: true });
      const after = (await request(`${api}?mine=1`, { key })).body.events.find(
        (e: { id: string }) => e.id === created.body.id,
      );
      expect(after).toEqual(before);

      const restoreAgain = await request(api, { key, json: { action: 'restore', externalId: 'lc-1' } });
      expect(restoreAgain.body).toMatchObject({ restored: true, detail: expect.stringMatching(/not cancelled/) });

      const log = await server.service.ctx.events.revisions(created.body.id);
      expect(log.map((r) => r.action)).toEqual(['create', 'cancel', 'restore']);
      const stored = await server.service.ctx.events.findById(created.body.id);
      expect(log.at(-1)!.snapshot).toEqual(JSON.parse(JSON.stringify(stored)));
    });

    it('cancels by POST action and by DELETE ?id&country', async () => {
      const a = await request(api, { key, json: event({ externalId: 'lc-2', title: 'Lifecycle Two' }) });
      const byAction = await request(api, { key, json: { action: 'cancel', externalId: 'lc-2' } });
      expect(byAction.body).toEqual({ id: a.body.id, cancelled: true, reversible: true });
      const b = await request(api, { key, json: event({ externalId: 'lc-3', title: 'Lifecycle Three' }) });
      const byId = await request(`${api}?id=${b.body.id}&country=ch`, { key, method: 'DELETE' });
      expect(byId.body).toEqual({ id: b.body.id, cancelled: true, reversible: true });
      const wrongCountry = await request(`${api}?id=${b.body.id}&country=de`, { key, method: 'DELETE' });
      expect(wrongCountry.status).toBe(404);
    });

    it('lets only the owner cancel or restore (403), and says 404 for unknown events', async () => {
      const a = await request(api, { key, json: event({ externalId: 'owned', title: 'Owned Event' }) });
      const foreign = await request(`${api}?id=${a.body.id}`, { key: otherKey, method: 'DELETE' });
      expect(foreign.status).toBe(403);
      expect(foreign.body.code).toBe('not-owner');
      const foreignRestore = await request(api, { key: otherKey, json: { action: 'restore', id: a.body.id } });
      expect(foreignRestore.status).toBe(403);
      const unknown = await request(`${api}?externalId=nope`, { key, method: 'DELETE' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('event-not-found');
      const unknownId = await request(api, { key, json: { action: 'cancel', id: 'does-not-exist' } });
      expect(unknownId.status).toBe(404);
      const neither = await request(`${api}`, { key, method: 'DELETE' });
      expect(neither.status).toBe(422);
      const still = (await request(`${api}?mine=1`, { key })).body.events.find(
        (e: { id: string }) => e.id === a.body.id,
      );
      expect(still.lifecycle).toBe('listed');
    });

    it('keeps updates of a cancelled event cancelled until restored', async () => {
      await request(api, { key, json: event({ externalId: 'lc-4', title: 'Lifecycle Four' }) });
      await request(`${api}?externalId=lc-4`, { key, method: 'DELETE' });
      const update = await request(api, { key, json: event({ externalId: 'lc-4', title: 'Lifecycle Four (moved)' }) });
      expect(update.status).toBe(200);
      const stored = (await request(`${api}?mine=1`, { key })).body.events.find(
        (e: { id: string }) => e.id === update.body.id,
      );
      expect(stored).toMatchObject({ lifecycle: 'cancelled', title: 'Lifecycle Four (moved)' });
    });
  });

  describe('mine=1', () => {
    it("lists only the key's own events, unlisted and cancelled included", async () => {
      const own = await request(`${api}?mine=1`, { key });
      const other = await request(`${api}?mine=1`, { key: otherKey });
      const ownIds = new Set(own.body.events.map((e: { id: string }) => e.id));
      expect(other.body.events.some((e: { id: string }) => ownIds.has(e.id))).toBe(false);
      expect(own.body.events.some((e: { visibility: string }) => e.visibility === 'unlisted')).toBe(true);
      expect(own.body.events.some((e: { lifecycle: string }) => e.lifecycle === 'cancelled')).toBe(true);
      expect(own.body.count).toBe(own.body.events.length);
    });
  });

  it('refuses to delete rows at the database level', async () => {
    await expect(server.service.ctx.storage.db.deleteFrom('events').execute()).rejects.toThrow(
      /nothing is ever destroyed/,
    );
    await expect(server.service.ctx.storage.db.deleteFrom('event_revisions').execute()).rejects.toThrow(
      /nothing is ever destroyed/,
    );
  });
});
