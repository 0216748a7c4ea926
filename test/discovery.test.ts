import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAIN_FIELD_NAMES } from '../src/catalogue/event.js';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

// "Now" is Saturday 1 March 2025, 10:00 in Zürich: the shipped confs.tech seed is the fixture.
const NOW = '2025-03-01T09:00:00Z';
/** The read shape of spec §2.1, and the plain fields of the event model (documented extensions). */
const READ_FIELDS: string[] = [
  'id',
  'title',
  'start',
  'format',
  'rsvp',
  'city',
  'venue',
  'geo',
  'price',
  'topics',
  'seniority',
  'organizer',
  'source',
  'sourceUrl',
  'url',
  'matchReasons',
  // Documented extensions.
  'end',
  'allDay',
  'cfp',
  ...PLAIN_FIELD_NAMES,
];

describe.each(ENGINES)('discovery on %s', (engine) => {
  let server: TestServer;
  let key: string;
  let api: string;
  const get = (query: string) => request(`${api}?${query}`);
  const titles = (body: { events: { title: string }[] }) => body.events.map((e) => e.title);

  beforeAll(async () => {
    server = await startTestServer(engine, { now: NOW, env: { SEED: '1' } });
    key = await server.createKey('Zürich AI Society', 'ch');
    api = `${server.base}/api/events`;
    const push = (body: Record<string, unknown>) => request(api, { key, json: { format: 'in_person', ...body } });
    await push({
      externalId: 'ki',
      title: 'KI Meetup Zürich: LLMs in production',
      startAt: '2025-03-05T18:30:00+01:00',
      city: 'Zürich',
      venue: 'Impact Hub',
      topics: ['ai-ml'],
      price: 'free',
      description: 'Founders and engineers share how they run LLMs.',
    });
    await push({
      externalId: 'sun',
      title: 'Late Night Hack',
      startAt: '2025-03-02T23:30:00+01:00',
      city: 'Zürich',
      topics: ['web'],
    });
    await push({
      externalId: 'mon',
      title: 'Early Bird Hack',
      startAt: '2025-03-03T00:30:00+01:00',
      city: 'Zürich',
      topics: ['web'],
    });
    await push({
      externalId: 'founders',
      title: 'Founders & Investors Breakfast',
      startAt: '2025-03-12T08:00:00+01:00',
      city: 'Basel',
      topics: ['startups'],
      seniority: ['executive'],
    });
    await push({
      externalId: 'rust',
      title: 'Rust Meetup Winterthur',
      startAt: '2025-03-20T18:00:00+01:00',
      city: 'Winterthur',
      topics: ['programming-languages'],
    });
    await push({
      externalId: 'hidden',
      title: 'Secret AI Dinner',
      startAt: '2025-03-06T19:00:00+01:00',
      city: 'Zürich',
      topics: ['ai-ml'],
      visibility: 'unlisted',
    });
    await push({
      externalId: 'online',
      title: 'Remote AI Office Hours',
      startAt: '2025-03-06T12:00:00+01:00',
      format: 'online',
      topics: ['ai-ml'],
      price: 'free',
    });
  });
  afterAll(() => server?.close());

  describe('listing without q', () => {
    it('lists public, listed, upcoming events of ch by start, in the read shape', async () => {
      const res = await get('');
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.body.query).toEqual({ country: 'ch', q: '', topics: [], limit: 50 });
      expect(res.body.count).toBe(res.body.events.length);
      expect(res.body.total).toBeGreaterThanOrEqual(res.body.count);
      const starts = res.body.events.map((e: { start: string }) => e.start);
      expect([...starts].sort()).toEqual(starts);
      expect(titles(res.body)).not.toContain('Secret AI Dinner');
      expect(titles(res.body)).not.toContain('Voxxed Days CERN'); // January 2025: over
      for (const e of res.body.events) {
        expect(Object.keys(e).every((k) => READ_FIELDS.includes(k))).toBe(true);
        expect(e.start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(e.url).toBe(`${server.base}/ch/events/${e.id}`);
        expect(e.price.currency).toBe('CHF');
        expect(e.matchReasons.length).toBeGreaterThan(0);
      }
      const dice = res.body.events.find((e: { title: string }) => e.title === 'DICE Ecosystems');
      expect(dice).toMatchObject({
        source: 'curated',
        city: 'Zürich',
        sourceUrl: expect.stringMatching(/^https?:\/\//),
      });
      expect(dice.geo.precision).toBe('city');
      expect(res.body.calendar).toBe(`${server.base}/api/calendar?country=ch`);
      expect(res.body.understood).toBe('Upcoming events in Switzerland');
    });

    it('honours country and limit', async () => {
      const res = await get('country=de&limit=5');
      expect(res.body.count).toBe(5);
      expect(res.body.total).toBeGreaterThan(5);
      expect(
        res.body.events.every(
          (e: { url: string; price: { currency: string } }) =>
            e.url.includes('/de/events/') && e.price.currency === 'EUR',
        ),
      ).toBe(true);
    });

    it('filters by city in any spelling', async () => {
      const zurich = titles((await get('city=Zurich')).body);
      expect(zurich).toContain('Devopsdays Zurich');
      expect(titles((await get('city=Z%C3%BCrich')).body)).toEqual(zurich);
      expect(titles((await get('city=zuerich')).body)).toEqual(zurich);
      expect(titles((await get('city=Genf')).body)).toContain('Devopsdays Geneva');
      expect(titles((await get('city=Gen%C3%A8ve')).body)).toEqual(titles((await get('city=Geneva')).body));
      expect(titles((await get('country=de&city=Munich')).body)).toEqual(
        titles((await get('country=de&city=M%C3%BCnchen')).body),
      );
      expect(titles((await get('country=de&city=Munich')).body)).toContain('JavaScript & Angular Days');
      expect(titles((await get('country=at&city=Vienna')).body)).toEqual(
        titles((await get('country=at&city=Wien')).body),
      );
    });

    it('widens a city to 45 km with near=1', async () => {
      expect(titles((await get('city=Winterthur')).body)).toEqual(['Rust Meetup Winterthur']);
      const near = await get('city=Winterthur&near=1');
      expect(titles(near.body)).toEqual(expect.arrayContaining(['Rust Meetup Winterthur', 'Devopsdays Zurich']));
      const devops = near.body.events.find((e: { title: string }) => e.title === 'Devopsdays Zurich');
      expect(devops.matchReasons).toContainEqual(expect.stringMatching(/^\d+ km from Winterthur$/));
      expect(titles(near.body)).not.toContain('Devopsdays Geneva');
    });

    it('filters by topic, seniority, format, org and who=founders', async () => {
      expect(titles((await get('topic=ai-ml')).body)).toEqual(
        expect.arrayContaining(['KI Meetup Zürich: LLMs in production', 'Remote AI Office Hours']),
      );
      expect(titles((await get('topic=ai-ml')).body)).not.toContain('Secret AI Dinner');
      expect(titles((await get('topic=ai-ml&format=online')).body)).toEqual(['Remote AI Office Hours']);
      expect(titles((await get('seniority=executive')).body)).toEqual(['Founders & Investors Breakfast']);
      const founders = titles((await get('who=founders')).body);
      expect(founders).toContain('Founders & Investors Breakfast');
      expect(founders).not.toContain('Rust Meetup Winterthur');
      expect(titles((await get(`org=${encodeURIComponent('Zürich AI Society')}`)).body)).toHaveLength(6);
      expect(titles((await get('org=zurich%20ai')).body)).toHaveLength(0);
    });
  });

  describe('invalid parameters', () => {
    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=ten', 'limit'],
      ['country=fr', 'country'],
      ['format=teleport', 'format'],
      ['seniority=guru', 'seniority'],
      ['topic=astrology', 'topic'],
      ['near=1', 'near'],
      ['city=Paris', 'city'],
      ['city=Berlin', 'city'],
      ['who=everyone', 'who'],
    ])('%s → 422 naming %s', async (query, field) => {
      const res = await get(query);
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  });

  describe('free text', () => {
    it('ranks a full match first and explains it', async () => {
      const res = await get(`q=${encodeURIComponent('free AI meetups in Zürich next week for founders')}`);
      expect(res.status).toBe(200);
      const top = res.body.events[0];
      expect(top.title).toBe('KI Meetup Zürich: LLMs in production');
      expect(top.matchReasons).toEqual(
        expect.arrayContaining(['Topic: AI & ML', 'In Zürich', 'Next week: Wed 5 Mar', 'Free']),
      );
      expect(res.body.understood).toContain('AI & ML');
      expect(res.body.understood).toContain('Zürich');
      expect(res.body.understood).toContain('next week (3–9 Mar');
      expect(res.body.query).toMatchObject({
        country: 'ch',
        q: 'free AI meetups in Zürich next week for founders',
        topics: ['ai-ml'],
      });
      expect(res.body.calendar).toBe(
        `${server.base}/api/calendar?country=ch&q=free+AI+meetups+in+Z%C3%BCrich+next+week+for+founders`,
      );
      for (const e of res.body.events) expect(e.matchReasons.length).toBeGreaterThan(0);
    });

    it.each([
      ['devops in Zürich', 'ch', 'Devopsdays Zurich'],
      ['DevOps Konferenz in Genf', 'ch', 'Devopsdays Geneva'],
      ['conférence DevOps à Genève', 'ch', 'Devopsdays Geneva'],
      ['KI in der Nähe von Zürich', 'ch', 'KI Meetup Zürich: LLMs in production'],
      ['JavaScript Konferenz in München', 'de', 'JavaScript & Angular Days'],
      ['PHP conference in Berlin', 'de', 'International PHP Conference'],
      ['Symfony Berlin', 'de', 'SymfonyLive Berlin'],
      ['Python in Darmstadt', 'de', 'PyCon DE & PyData'],
    ])('understands “%s”', async (q, country, first) => {
      const res = await get(`q=${encodeURIComponent(q)}`);
      expect(res.body.query.country).toBe(country);
      expect(res.body.events[0]?.title).toBe(first);
    });

    it('leaves out events that match nothing of q', async () => {
      const res = await get('q=xyzzyplugh');
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(0);
      expect(res.body.events).toEqual([]);
    });

    it('reads dates in English, German and French in the country time zone', async () => {
      for (const q of ['next week', 'nächste Woche', 'la semaine prochaine']) {
        const res = await get(`country=de&q=${encodeURIComponent(q)}`);
        expect(titles(res.body).slice(0, 2), q).toEqual(expect.arrayContaining(['BASTA! Spring', 'emBO++']));
        expect(res.body.events[0].matchReasons[0]).toMatch(
          /^(Next week|Nächste Woche|La semaine prochaine)?.*Mon 3 Mar|Thu 6 Mar/,
        );
      }
    });

    it('puts an event at 23:30 local on a Sunday in that weekend, and 00:30 Monday not', async () => {
      for (const q of ['this weekend', 'am Wochenende', 'ce week-end']) {
        const res = await get(`q=${encodeURIComponent(`${q} hack`)}`);
        const sunday = res.body.events.find((e: { title: string }) => e.title === 'Late Night Hack');
        const monday = res.body.events.find((e: { title: string }) => e.title === 'Early Bird Hack');
        expect(sunday.matchReasons, q).toContainEqual(expect.stringMatching(/weekend: Sun 2 Mar$/i));
        expect(monday?.matchReasons ?? [], q).not.toContainEqual(expect.stringMatching(/weekend/i));
        expect(res.body.events[0].title).toBe('Late Night Hack');
      }
    });

    it('understands formats, price and audience in three languages', async () => {
      for (const q of ['online AI', 'KI online kostenlos', 'IA en ligne gratuit']) {
        const res = await get(`q=${encodeURIComponent(q)}`);
        expect(res.body.events[0].title, q).toBe('Remote AI Office Hours');
        expect(res.body.events[0].matchReasons).toContain('Online');
      }
      for (const q of ['events for founders', 'für Gründer', 'pour les fondateurs']) {
        const res = await get(`q=${encodeURIComponent(q)}`);
        expect(res.body.events[0].title, q).toBe('Founders & Investors Breakfast');
        expect(res.body.events[0].matchReasons).toContain('For founders');
      }
    });

    it('ranks by proximity for "near"', async () => {
      const res = await get(`q=${encodeURIComponent('near Winterthur')}`);
      expect(res.body.events[0].title).toBe('Rust Meetup Winterthur');
      expect(
        res.body.events
          .slice(1)
          .every((e: { matchReasons: string[] }) => e.matchReasons.some((r) => / km from Winterthur$/.test(r))),
      ).toBe(true);
    });

    it('says which title words matched', async () => {
      const res = await get('q=Angular&country=de');
      expect(res.body.events[0].title).toBe('JavaScript & Angular Days');
      expect(res.body.events[0].matchReasons).toContain('Title mentions “Angular”');
    });
  });

  describe('the index follows writes', () => {
    it('shows a new event at once, hides it on cancel, shows it again on restore', async () => {
      const flow = {
        externalId: 'flow',
        title: 'Quantum Computing Night',
        startAt: '2025-04-01T18:00:00+02:00',
        city: 'Bern',
        topics: ['quantum'],
      };
      const created = await request(api, { key, json: flow });
      expect(titles((await get('topic=quantum')).body)).toEqual(['Quantum Computing Night']);
      await request(`${api}?externalId=flow`, { key, method: 'DELETE' });
      expect(titles((await get('topic=quantum')).body)).toEqual([]);
      await request(api, { key, json: { action: 'restore', externalId: 'flow' } });
      const back = await get('topic=quantum');
      expect(back.body.events.map((e: { id: string }) => e.id)).toEqual([created.body.id]);
      await request(api, { key, json: { ...flow, visibility: 'unlisted' } });
      expect(titles((await get('topic=quantum')).body)).toEqual([]);
    });
  });
});
