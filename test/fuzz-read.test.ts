import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSecurityHeaders, parseCalendar, parseMarkdownTable, parsePage } from './helpers/documents.js';
import {
  expectNoServerError,
  expectProblem,
  FORBIDDEN_CODE_POINTS,
  fuzzParams,
  hostileOrLong,
  hostileString,
  INJECTIONS,
} from './helpers/fuzz.js';
import { type Response, request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Property-based tests of every read parameter, `q` and the path shapes (the MCP tools' arguments: fuzz-mcp.test.ts) against a live
 * server holding the curated catalogue plus hostile events: never a 5xx; a rejection is a problem+json 4xx (or the
 * HTML/markdown 404 page of its route); markdown, iCal and HTML answers parse and keep their structure.
 */

const NOW = '2025-03-01T09:00:00Z';
const PARAMS = ['country', 'q', 'topic', 'seniority', 'city', 'near', 'format', 'org', 'who', 'limit', 'from', 'to'];

const validValue: Record<string, fc.Arbitrary<string>> = {
  country: fc.constantFrom('ch', 'de', 'at'),
  q: fc.constantFrom('AI meetups in Zürich next week', 'KI in Berlin', 'devops', 'free workshops', 'Genf', ''),
  topic: fc.constantFrom('ai-ml', 'web,data', 'cloud-devops', 'security,,startups'),
  seniority: fc.constantFrom('junior', 'senior,executive', 'student'),
  city: fc.constantFrom('Zürich', 'Zurich', 'Berlin', 'München', 'Wien', 'Genf'),
  near: fc.constantFrom('1', '0', 'true', 'false'),
  format: fc.constantFrom('in_person', 'online', 'hybrid'),
  org: fc.constantFrom('basta.net', 'Render Host', 'Startup Grind'),
  who: fc.constant('founders'),
  limit: fc.constantFrom('1', '10', '100', '50'),
  from: fc.constantFrom('2025-03-01', '2025-04-15'),
  to: fc.constantFrom('2025-03-31', '2025-12-31'),
};

const value = (name: string) =>
  fc.oneof(
    { weight: 3, arbitrary: validValue[name] ?? hostileString() },
    { weight: 3, arbitrary: hostileString() },
    {
      weight: 1,
      arbitrary: fc.constantFrom('0', '-1', '101', '1e2', '2025-02-30', '9999-99-99', ' ', ',', 'null', '[]', '%'),
    },
    { weight: 1, arbitrary: hostileOrLong(name === 'q' ? 500 : 200) },
  );

/** 0–5 parameters, valid or hostile, sometimes repeated, sometimes unknown names. */
const anyQuery = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...PARAMS).chain((name) => value(name).map((v) => [name, v] as const)) },
      { weight: 1, arbitrary: fc.tuple(hostileString(), hostileString()) },
    ),
    { maxLength: 5 },
  )
  .map((pairs) => new URLSearchParams(pairs as [string, string][]).toString());

/** The cities of validValue by the country whose gazetteer knows them. */
const CITIES = { ch: ['Zürich', 'Zurich', 'Genf'], de: ['Berlin', 'München'], at: ['Wien'] } as const;
type Country = keyof typeof CITIES;

/**
 * A query the grammar takes: each parameter at most once with a valid value, a city of the country searched (any
 * with `all`), `near` only with a city, `to` after every `from`. On a country's page the path names the country.
 */
const wellFormedQuery = (page?: Country) =>
  fc
    .constantFrom<Country | 'all' | undefined>(
      ...(page ? [undefined] : (['ch', 'de', 'at', 'all', undefined] as const)),
    )
    .chain((country) =>
      fc
        .record(
          {
            q: validValue.q!,
            topic: validValue.topic!,
            seniority: validValue.seniority!,
            city: fc.constantFrom(...CITIES[page ?? (country === undefined || country === 'all' ? 'ch' : country)]),
            near: validValue.near!,
            format: validValue.format!,
            org: validValue.org!,
            who: validValue.who!,
            limit: validValue.limit!,
            from: validValue.from!,
            to: fc.constantFrom('2025-04-30', '2025-12-31'),
          },
          { requiredKeys: [] },
        )
        .map(({ near, ...rest }) => {
          const params = new URLSearchParams(country ? { country } : {});
          for (const [k, v] of Object.entries({ ...rest, ...(rest.city ? { near } : {}) })) if (v) params.set(k, v);
          return params.toString();
        }),
    );

/** The share of queries that are well-formed: the properties hold each to a 200, and the run to that share. */
const WELL_FORMED_SHARE = 1 / 3;
const queryOf = (wellFormed: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 1, arbitrary: wellFormed.map((qs) => ({ qs, wellFormed: true })) },
    { weight: 2, arbitrary: anyQuery.map((qs) => ({ qs, wellFormed: false })) },
  );
const query = queryOf(wellFormedQuery());
/** A search page (the default country's or one country's) and a query, well-formed for that page or not. */
const pageQuery = fc
  .constantFrom<Country | undefined>(undefined, 'ch', 'de', 'at')
  .chain((page) => queryOf(wellFormedQuery(page)).map((q) => ({ path: `/${page ?? ''}`, ...q })));

/** What a property's answers were: how many queries it sent, how many of them well-formed, how many answered 200. */
const newTally = () => ({ runs: 0, wellFormed: 0, ok: 0 });
type Tally = ReturnType<typeof newTally>;

/** Parameter names an API key might come under: refused on every read route (src/http/authenticate.ts). */
const KEY_NAMES = ['key', 'api_key', 'apikey', 'apiKey', 'access_token', 'token'];

/** A refused query: a 400 `bad-request` when a parameter has a key's name, otherwise a 422 (its test follows). */
function expectKeyRefusal(res: Response, qs: string): boolean {
  if (![...new URLSearchParams(qs).keys()].some((name) => KEY_NAMES.includes(name))) return false;
  expect(res.status, qs).toBe(400);
  expectProblem(res, server.base, qs);
  expect(res.body.code, qs).toBe('bad-request');
  expect(res.body.detail, qs).toMatch(/never accepted in the query string/);
  return true;
}

/**
 * A well-formed query answers 200; any other answer is a refusal in the form its cause takes: a 400 for a key in the
 * query string, otherwise a 422 `invalid-request` naming only parameters the query gave.
 */
function expectAnswer(res: Response, { qs, wellFormed }: { qs: string; wellFormed: boolean }, tally: Tally) {
  tally.runs++;
  if (wellFormed) tally.wellFormed++;
  if (res.status === 200) tally.ok++;
  if (wellFormed) expect(res.status, `${qs} → ${res.text.slice(0, 300)}`).toBe(200);
  if (res.status === 200) return;
  if (expectKeyRefusal(res, qs)) return;
  expectProblem(res, server.base, qs);
  expect(res.status, qs).toBe(422);
  expect(res.body.code, qs).toBe('invalid-request');
  const given = [...new URLSearchParams(qs).keys()];
  expect(res.body.errors.length, qs).toBeGreaterThan(0);
  for (const e of res.body.errors as { field: string }[]) expect(given, qs).toContain(e.field.replace(/[[.].*$/, ''));
}

/**
 * The run kept the generator's promise: at least the well-formed queries answered 200, and they were about their
 * share of the runs (a binomial count, held to four standard deviations below its mean: it fails by chance ~1 in 30 000).
 */
function expectShare(tally: Tally, route: string) {
  console.log(`fuzz ${route}: ${JSON.stringify(tally)}`);
  const mean = tally.runs * WELL_FORMED_SHARE;
  expect(tally.wellFormed, route).toBeGreaterThanOrEqual(mean - 4 * Math.sqrt(mean * (1 - WELL_FORMED_SHARE)));
  expect(tally.ok, route).toBeGreaterThanOrEqual(tally.wellFormed);
}

/** Percent-escapes that decode to invalid UTF-8, NUL, overlong forms… */
const rawBytes = fc
  .uint8Array({ minLength: 1, maxLength: 10 })
  .map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join(''));

/** One server for the file: the curated catalogue plus the hostile events of the first suite. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { now: NOW, env: { SEED: '1' } });
});
afterAll(() => server?.close());

describe('fuzzing reads', () => {
  beforeAll(async () => {
    const key = await server.createKey('Render Host', 'ch');
    // A few hostile events among the curated ones, so hostile text flows through every output.
    for (const [i, title] of INJECTIONS.entries()) {
      if (!title.trim() || i % 3 !== 0) continue;
      const res = await request(`${server.base}/api/events`, {
        key,
        json: {
          // (the API refuses NUL and the other code points no output may carry: keep them out of what must be accepted)
          title: `${title} meetup ${i}`.replace(FORBIDDEN_CODE_POINTS, ''),
          startAt: `2025-03-${String(2 + (i % 27)).padStart(2, '0')}T18:30:00+01:00`,
          city: ['Zürich', 'Berlin', 'Wien'][i % 3],
          venue: `Hall ${INJECTIONS[(i + 7) % INJECTIONS.length]}`.replace(FORBIDDEN_CODE_POINTS, ''),
          organizer: `Org ${INJECTIONS[(i + 13) % INJECTIONS.length]}`.replace(FORBIDDEN_CODE_POINTS, ''),
          description: INJECTIONS.join(' ').replace(FORBIDDEN_CODE_POINTS, ''),
          topics: ['ai-ml'],
        },
      });
      expect(res.status, res.text).toBe(201);
    }
  });

  it('answers /api/events with JSON or a problem for any parameters', async () => {
    const tally = newTally();
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const res = await request(`${server.base}/api/events?${q.qs}`);
        expectAnswer(res, q, tally);
        if (res.status === 200) {
          expect(res.headers.get('content-type')).toMatch(/^application\/json/);
          expect(res.body.events.length).toBeLessThanOrEqual(res.body.total);
          expect(res.body.events.length).toBeLessThanOrEqual(100);
        }
      }),
      fuzzParams(300),
    );
    expectShare(tally, '/api/events');
  });

  it('keeps /api/md a well-formed table for any parameters', async () => {
    const tally = newTally();
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const res = await request(`${server.base}/api/md?${q.qs}`);
        expectAnswer(res, q, tally);
        if (res.status === 200) {
          expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
          parseMarkdownTable(res.text, server.base);
        }
      }),
      fuzzParams(200),
    );
    expectShare(tally, '/api/md');
  });

  it('keeps /api/calendar a valid calendar for any parameters', async () => {
    const tally = newTally();
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const qs = q.qs;
        const res = await request(`${server.base}/api/calendar?${qs}`);
        expectAnswer(res, q, tally);
        if (res.status === 200) {
          expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
          const { events } = parseCalendar(res.text);
          // The same query as JSON lists the same events.
          const json = await request(`${server.base}/api/events?${qs}`);
          expect(events.map(({ e }) => e.uid.split('@')[0])).toEqual(json.body.events.map((e: { id: string }) => e.id));
        }
      }),
      fuzzParams(200),
    );
    expectShare(tally, '/api/calendar');
  });

  it('keeps the search pages safe HTML for any parameters', async () => {
    const tally = newTally();
    await fc.assert(
      fc.asyncProperty(pageQuery, async ({ path, qs, wellFormed }) => {
        const res = await request(`${server.base}${path}?${qs}`);
        tally.runs++;
        if (wellFormed) tally.wellFormed++;
        if (res.status === 200) tally.ok++;
        if (wellFormed) expect(res.status, `${path}?${qs}`).toBe(200);
        if (expectKeyRefusal(res, qs)) return;
        // A refused query is the page again, saying what to mend.
        expect([200, 422], qs).toContain(res.status);
        expectSecurityHeaders(res.headers, qs);
        const doc = parsePage(res.text);
        expect(doc.byTag('script'), qs).toHaveLength(0);
        const qs_ = new URLSearchParams(qs).getAll('q');
        const q = qs_.length === 1 ? qs_[0] : undefined; // a repeated q is not echoed into the form
        const input = doc.byTag('input').find((i) => doc.attr(i, 'name') === 'q');
        // Echoed as typed, less what HTML forbids in its input (controls, noncharacters: the page leaves them out).
        if (q?.trim())
          expect(doc.attr(input!, 'value')).toBe(q.replace(/\r\n?/g, '\n').replace(FORBIDDEN_CODE_POINTS, ''));
      }),
      fuzzParams(150),
    );
    expectShare(tally, 'the search pages');
  });

  it('answers hostile path segments and raw byte escapes without a 5xx', async () => {
    const segment = fc.oneof(
      hostileString().map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))),
      rawBytes,
      fc.constantFrom('..', '%2e%2e', '%2F', '%00', 'ch', 'devopsdays-zurich', 'a'.repeat(300)),
    );
    const shape = fc.constantFrom(
      (s: string) => `/${s}`,
      (s: string) => `/ch/events/${s}`,
      (s: string) => `/ch/events/${s}.ics`,
      (s: string) => `/${s}/events/x`,
      (s: string) => `/${s}.md`,
      (s: string) => `/ch/cities/${s}.md`,
      (s: string) => `/de/topics/${s}.md`,
      (s: string) => `/problems/${s}`,
      (s: string) => `/api/events?q=${s}&city=${s}`,
      (s: string) => `/api/md?${s}=${s}`,
      (s: string) => `/?q=${s}`,
    );
    await fc.assert(
      fc.asyncProperty(shape, segment, async (make, s) => {
        const path = make(s);
        const res = await request(`${server.base}${path}`);
        expectNoServerError(res, server.base, path, [/^text\/html/, /^text\/markdown/]);
        if (/^text\/html/.test(res.headers.get('content-type') ?? '')) {
          expectSecurityHeaders(res.headers, path);
          expect(parsePage(res.text).byTag('script').length, path).toBeLessThanOrEqual(1);
        }
      }),
      fuzzParams(300),
    );
  });

  it('refuses a key in the query string under every parameter name, on every read route', async () => {
    for (const path of ['/api/events', '/api/md', '/api/calendar', '/', '/ch.md', '/api/events?mine=1']) {
      for (const name of KEY_NAMES) {
        const sep = path.includes('?') ? '&' : '?';
        const res = await request(`${server.base}${path}${sep}${name}=tev_0123456789ab_${'A'.repeat(43)}`);
        expect(res.status, `${path} ${name}`).toBe(400);
        expectProblem(res, server.base);
        expect(res.body.detail).toMatch(/never accepted in the query string/);
      }
    }
  });
});
