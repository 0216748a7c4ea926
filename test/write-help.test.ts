import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPIC_SLUGS } from '../src/catalogue/taxonomy.js';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { submission as event } from './helpers/submission.js';

type FieldError = { field: string; message: string; given?: string };

/** What a writer (and a reader building a query) is told when a value is wrong, and when a stored event is over. */
describe.each(ENGINES)('errors and warnings that help the writer on %s', (engine) => {
  let server: TestServer;
  let key: string;
  let api: string;

  beforeAll(async () => {
    server = await startTestServer(engine, { now: '2026-11-22T12:00:00Z' });
    key = await server.createKey('Zürich AI Society', 'ch');
    api = `${server.base}/api/events`;
  });
  afterAll(() => server?.close());

  const only = (errors: FieldError[], field: string) => {
    const found = errors.filter((e) => e.field === field);
    expect(found, JSON.stringify(errors)).toHaveLength(1);
    return found[0]!;
  };

  it('lists the topic slugs in the error for an unknown topic, and points at a reference that exists', async () => {
    const res = await request(api, { key, json: event({ externalId: 'astro', topics: ['ai-ml', 'astrology'] }) });
    expect(res.status).toBe(422);
    const error = only(res.body.errors, 'topics[1]');
    expect(error.given).toBe('"astrology"');
    for (const slug of TOPIC_SLUGS) expect(error.message).toContain(slug);
    expect(error.message).not.toContain('#topics');
    expect(res.body.detail).toContain('topics[1] "astrology": is not a topic slug; use one of ai-ml, data,');
    // The places it names: the API reference (Swagger UI over the OpenAPI document) and the taxonomy page.
    expect(error.message).toMatch(/\/docs \(EventSubmission\).*docs\/taxonomy\.md/);
    const docs = await request(`${server.base}/docs`, { headers: { accept: 'text/html' } });
    expect(docs.status).toBe(200);
  });

  it('publishes the topic slugs as an enum in OpenAPI, for the write body and for the read parameter', async () => {
    const { body } = await request(`${server.base}/api/openapi.json`);
    expect(body.components.schemas.EventSubmission.properties.topics.items.enum).toEqual([...TOPIC_SLUGS]);
    for (const path of ['/api/events', '/api/md', '/api/calendar']) {
      const topic = body.paths[path].get.parameters.find((p: { name: string }) => p.name === 'topic');
      expect(topic, path).toMatchObject({ in: 'query', style: 'form', explode: false, schema: { type: 'array' } });
      expect(topic.schema.items.enum, path).toEqual([...TOPIC_SLUGS]);
      expect(topic.description).toMatch(/comma list \(topic=a,b\) or the parameter repeated/);
    }
    const warning = body.components.schemas.WriteWarning;
    expect(warning.properties.code.enum).toEqual(['event-over']);
    expect(body.components.schemas.WriteResult.properties.warnings.items.$ref).toBe(
      '#/components/schemas/WriteWarning',
    );
    expect(body.components.schemas.Problem.properties.errors.items.properties.given.type).toBe('string');
    // A documented list parameter works as documented, both ways.
    for (const qs of ['topic=ai-ml,data', 'topic=ai-ml&topic=data']) {
      expect((await request(`${api}?${qs}`)).status, qs).toBe(200);
    }
  });

  const reads: [string, string, string | undefined, RegExp][] = [
    ['near=abc&city=Z%C3%BCrich', 'near', '"abc"', /must be 1 or true \(with city: widen it to about 45 km/],
    ['near=1', 'near', undefined, /needs city/],
    ['limit=abc', 'limit', '"abc"', /whole number from 1 to 100/],
    ['limit=5000', 'limit', '"5000"', /whole number from 1 to 100/],
    ['country=fr', 'country', '"fr"', /must be ch, de, at or all/],
    ['from=2026-13-01', 'from', '"2026-13-01"', /must be a date YYYY-MM-DD, e\.g\. 2026-12-03/],
    ['from=2026-12-05&to=2026-12-01', 'to', '"2026-12-01"', /must not be before from \(2026-12-05\)/],
    ['format=teleport', 'format', '"teleport"', /one of in_person, online, hybrid/],
    ['who=everyone', 'who', '"everyone"', /must be founders/],
    ['cfp=closed', 'cfp', '"closed"', /must be open/],
    ['lang=xx', 'lang', undefined, /unknown language "xx"; use en, de, fr, it/],
    ['topic=astro,ai-ml', 'topic', undefined, /unknown topic "astro"; use ai-ml, data/],
    [
      'city=Atlantis',
      'city',
      undefined,
      /"Atlantis" is not a known city in ch; give a city there in any common spelling/,
    ],
    ['mine=2', 'mine', '"2"', /must be 1 \(with a key: your own events\) or 0/],
  ];
  it.each(reads)(
    'GET /api/events?%s names %s, what was given and what it takes',
    async (qs, field, given, accepted) => {
      const res = await request(`${api}?${qs}`);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('invalid-request');
      const error = only(res.body.errors, field);
      expect(error.message).toMatch(accepted);
      expect(error.given).toBe(given);
      expect(res.body.detail).toContain(`${field}${given ? ` ${given}` : ''}: ${error.message}`);
      expect(res.body.detail).not.toMatch(/Invalid input/);
    },
  );

  it('quotes a long or hostile value cut short and escaped, never whole', async () => {
    const long = await request(`${api}?q=${'x'.repeat(600)}`);
    expect(only(long.body.errors, 'q').given).toBe(`"${'x'.repeat(40)}…"`);
    const title = `<script>\u0000${'y'.repeat(400)}`;
    const res = await request(api, { key, json: event({ externalId: 'hostile', title }) });
    // Too long and holding NUL: two errors, each quoting the same cut, escaped value.
    const errors = (res.body.errors as FieldError[]).filter((e) => e.field === 'title');
    expect(errors.map((e) => e.message)).toEqual([
      'must be at most 300 characters',
      'must not contain the control character U+0000 (character 9): of those only tab and line breaks are allowed',
    ]);
    for (const error of errors) {
      expect(error.given).toBe(JSON.stringify(`<script>\u0000${'y'.repeat(31)}…`));
      expect(error.given).toContain('\\u0000');
    }
    expect(res.text).not.toContain('y'.repeat(41));
  });

  const writes: [string, Record<string, unknown>, string, string | undefined, RegExp][] = [
    ['a wrong type is not "required"', { capacity: 'ten' }, 'capacity', '"ten"', /whole number of places/],
    ['a missing title', { title: undefined }, 'title', undefined, /^is required \(must be text of at most 300/],
    ['a missing startAt', { startAt: undefined }, 'startAt', undefined, /^is required \(must be an ISO 8601/],
    ['a number for startAt', { startAt: 5 }, 'startAt', '5', /ISO 8601 date-time with a UTC offset, e\.g\./],
    [
      'topics as a string',
      { topics: 'ai-ml' },
      'topics',
      '"ai-ml"',
      /must be a list of topic slugs, e\.g\. \["ai-ml"\]/,
    ],
    ['a latitude as text', { lat: 'north', lng: 8.5 }, 'lat', '"north"', /latitude in decimal degrees from -90 to 90/],
    ['a language', { language: 'klingon' }, 'language', '"klingon"', /must be one of en, de, fr, it/],
    ['a seniority', { seniority: ['guru'] }, 'seniority[0]', '"guru"', /must be one of student, junior/],
    ['a url', { url: 'example.org' }, 'url', '"example.org"', /absolute http\(s\) URL, e\.g\. https:/],
    ['a field in another spelling', { start_at: '2026-12-03' }, 'start_at', undefined, /did you mean startAt\?$/],
    ['an unknown city', { city: 'Atlantis' }, 'city', '"Atlantis"', /not a known city in Switzerland, .*: give one/],
    ['a point abroad', { lat: 48.85, lng: 2.35 }, 'lat', '[48.85,2.35]', /the point is not in Switzerland/],
    [
      'an end before the start',
      { endAt: '2026-12-03T17:00:00+01:00' },
      'endAt',
      '"2026-12-03T17:00:00+01:00"',
      /before startAt \(2026-12-03T18:30:00\+01:00\)/,
    ],
  ];
  it.each(writes)('a write with %s names the field, the value and the form', async (_n, change, field, given, form) => {
    const res = await request(api, { key, json: event({ externalId: `bad-${field}`, ...change }) });
    expect(res.status).toBe(422);
    const error = only(res.body.errors, field);
    expect(error.message).toMatch(form);
    expect(error.given).toBe(given);
    expect(res.body.detail).not.toMatch(/Invalid input/);
  });

  it('names the item, field and value of a bad batch item', async () => {
    const res = await request(`${api}/batch`, {
      key,
      json: { events: [event({ externalId: 'b-1' }), event({ externalId: 'b-2', capacity: -3 })] },
    });
    expect(res.status).toBe(200);
    expect(res.body.results[1].error.errors).toEqual([
      { field: 'events[1].capacity', message: 'must be at least 1', given: '-3' },
    ]);
    expect(res.body.results[1].error.detail).toBe('events[1].capacity -3: must be at least 1');
    const twice = await request(`${api}/batch`, {
      key,
      json: { events: [event({ externalId: 'b-3' }), event({ externalId: 'b-3' }), event({ externalId: undefined })] },
    });
    expect(twice.body.results[1].error.errors).toEqual([
      { field: 'events[1].externalId', message: expect.stringMatching(/^repeats an earlier item/), given: '"b-3"' },
    ]);
    expect(twice.body.results[2].error.detail).toMatch(/^events\[2\]\.externalId: is required in a batch: the host/);
    const envelope = await request(`${api}/batch`, { key, json: { events: 'all of them' } });
    expect(envelope.status).toBe(422);
    expect(envelope.body.detail).toBe(
      'events "all of them": must be a list of 1 to 1000 event submissions, each with its externalId',
    );
  });

  describe('an event already over', () => {
    const over = (field: string) => [{ code: 'event-over', field, detail: expect.stringMatching(/^Stored, but it/) }];

    it('is stored and answered with a warning naming endAt, or startAt without an end; upcoming ones get none', async () => {
      const past = event({
        externalId: 'past',
        startAt: '2020-03-05T18:30:00+01:00',
        endAt: '2020-03-05T21:00:00+01:00',
      });
      const created = await request(api, { key, json: past });
      expect(created.status).toBe(201);
      expect(created.body.warnings).toEqual(over('endAt'));
      expect(created.body.warnings[0].detail).toMatch(/ended at 2020-03-05T20:00:00\.000Z.*check endAt's year/);
      // Resent as is: still over, still said.
      const again = await request(api, { key, json: past });
      expect(again.status).toBe(200);
      expect(again.body.warnings).toEqual(over('endAt'));
      const noEnd = await request(api, {
        key,
        json: event({ externalId: 'past-start', startAt: '2026-11-22T08:00:00+01:00', endAt: undefined }),
      });
      expect(noEnd.status).toBe(201);
      expect(noEnd.body.warnings).toEqual(over('startAt'));
      expect(noEnd.body.warnings[0].detail).toMatch(/without endAt, counts as over at 2026-11-22T10:00:00\.000Z/);
      // Started but not over (within the three hours an event without an end is taken to last): nothing to say.
      const running = await request(api, {
        key,
        json: event({ externalId: 'running', startAt: '2026-11-22T12:30:00+01:00', endAt: undefined }),
      });
      expect(running.status).toBe(201);
      expect(running.body).not.toHaveProperty('warnings');
      const upcoming = await request(api, { key, json: event({ externalId: 'upcoming' }) });
      expect(upcoming.body).not.toHaveProperty('warnings');
      // What the warning says is so: kept in the host's own list, absent from the public one.
      const mine = (await request(`${api}?mine=1&limit=100`, { key })).body.events.map((e: { id: string }) => e.id);
      expect(mine).toContain(created.body.id);
      const listed = (await request(`${api}?limit=100`)).body.events.map((e: { id: string }) => e.id);
      expect(listed).not.toContain(created.body.id);
      expect(listed).toContain(upcoming.body.id);
    });

    it('is warned of item by item in a batch, a complete history included', async () => {
      const res = await request(`${api}/batch`, {
        key,
        json: {
          complete: true,
          events: [
            event({ externalId: 'h-2019', startAt: '2019-05-02', endAt: '2019-05-03', allDay: true }),
            event({ externalId: 'h-next' }),
            event({ externalId: 'h-2021', startAt: '2021-06-01T18:00:00+02:00', endAt: undefined }),
          ],
        },
      });
      expect(res.status).toBe(200);
      const [first, second, third] = res.body.results;
      expect(first).toMatchObject({ externalId: 'h-2019', created: true, warnings: over('endAt') });
      expect(second).not.toHaveProperty('warnings');
      expect(third).toMatchObject({ externalId: 'h-2021', created: true, warnings: over('startAt') });
    });
  });
});
