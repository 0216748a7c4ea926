import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import {
  acceptableText,
  expectNoServerError,
  expectProblem,
  FORBIDDEN_CODE_POINTS,
  fuzzParams,
  hostileOrLong,
  hostileString,
  INJECTIONS,
  visible,
} from './helpers/fuzz.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Property-based tests of the write API against a live server: whatever arrives, the answer is a 2xx or a
 * problem+json 4xx, never a 5xx; an accepted submission reads back exactly (text fields trimmed, as documented);
 * a rejected one changes nothing.
 */

const HOST = 'Fuzz Host';
const CITIES = ['Zürich', 'Zurich', ' Bern ', 'Genf', 'Genève', 'Berlin', 'München', 'Wien', 'Köln', 'Basel'];
const TOPICS = ['ai-ml', 'web', 'data', 'cloud-devops', 'security', 'startups'];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A well-formed ISO date-time with an offset: over the whole range the grammar allows, or (accepted) within the
 * years 1971–9998 and the offsets in use, -12:00 to +14:00, so that every output's year lies within 1970–9999.
 */
const isoDateTime = (accepted: boolean) =>
  fc
    .record({
      year: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 2025, max: 2035 }) },
        accepted ? fc.integer({ min: 1971, max: 9998 }) : fc.integer({ min: 1, max: 9999 }),
      ),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 28 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      second: fc.integer({ min: 0, max: 59 }),
      fraction: fc.option(fc.stringMatching(/^\d{1,9}$/), { nil: undefined }),
      offset: fc.oneof(
        fc.constant('Z'),
        fc
          .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45))
          // Offsets in use run from -12:00 to +14:00; beyond, the write API refuses them (test/text-policy.test.ts).
          .filter(([sign, h]) => !accepted || sign === '+' || h < 12)
          .map(([sign, h, m]) => `${sign}${pad(h)}:${pad(h === 14 ? 0 : m)}`),
      ),
    })
    .map(
      (d) =>
        `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}T${pad(d.hour)}:${pad(d.minute)}:${pad(d.second)}${d.fraction ? `.${d.fraction}` : ''}${d.offset}`,
    );

/** The instant an ISO date-time names, computed without the service's libraries (fraction truncated to ms). */
function instantOf(iso: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|([+-])(\d\d):(\d\d))$/.exec(iso)!;
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const date = new Date(0);
  date.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  date.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), ms);
  const offset = m[8] === 'Z' ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  return new Date(date.getTime() - offset * 60_000).toISOString();
}

const httpUrl = fc
  .tuple(
    fc.constantFrom('https://example.org/', 'http://tickets.example.ch/e?id=', 'https://ü.example/'),
    hostileString(),
  )
  .map(([base, tail]) => `${base}${encodeURIComponent(tail.replace(/[\ud800-\udfff]/g, ''))}`);

/** Submissions the API must accept (hostile but valid text everywhere). */
const acceptedSubmission = fc
  .record(
    {
      title: acceptableText(300),
      startAt: isoDateTime(true),
      city: fc.constantFrom(...CITIES),
      venue: acceptableText(300),
      description: fc.oneof(acceptableText(20_000), hostileString({ surrogates: false })),
      organizer: acceptableText(200),
      externalId: acceptableText(200),
      format: fc.constantFrom('in_person', 'online', 'hybrid'),
      topics: fc.array(fc.constantFrom(...TOPICS), { maxLength: 12 }),
      seniority: fc.uniqueArray(fc.constantFrom('student', 'junior', 'mid', 'senior', 'executive'), { maxLength: 5 }),
      regMode: fc.constantFrom('open', 'invite', 'waitlist'),
      capacity: fc.integer({ min: 1, max: 10_000_000 }),
      price: fc.constantFrom('free', 'unknown'),
      url: httpUrl,
      visibility: fc.constantFrom('public', 'unlisted'),
    },
    { requiredKeys: ['title', 'startAt'] },
  )
  // PGlite drops a leading U+FEFF of every text value it returns (see 'a leading U+FEFF' below): the fields the
  // service keeps untrimmed do not start with one here, so this property tests the service, not that defect.
  .map((s) => ({
    ...s,
    description: s.description?.replace(FORBIDDEN_CODE_POINTS, '').replace(/^\ufeff+/, ''),
    externalId: s.externalId?.replace(/^\ufeff+/, '') || undefined,
  }))
  // Within the 64 KiB body limit (20 000 control characters are 120 KB of JSON escapes: a 413, tested elsewhere).
  .filter((s) => Buffer.byteLength(JSON.stringify(s)) <= 64 * 1024);

/** Anything at all in any field, plus unknown fields. */
const hostileFields = fc.record(
  {
    title: fc.oneof(hostileOrLong(300), fc.constant(''), fc.integer(), fc.constant(null)),
    startAt: fc.oneof(
      isoDateTime(false),
      hostileString(),
      fc.constantFrom('2026-02-30T10:00:00+01:00', '2026-12-03T18:30:00'),
    ),
    endAt: fc.oneof(isoDateTime(false), hostileString()),
    city: fc.oneof(fc.constantFrom(...CITIES, 'Paris', 'Atlantis', ''), hostileString()),
    venue: hostileOrLong(300),
    description: hostileOrLong(20_000),
    organizer: hostileOrLong(200),
    externalId: hostileOrLong(200),
    format: fc.oneof(fc.constantFrom('in_person', 'online', 'hybrid'), hostileString()),
    topics: fc.oneof(
      fc.array(fc.oneof(fc.constantFrom(...TOPICS), hostileString()), { maxLength: 14 }),
      hostileString(),
    ),
    seniority: fc.array(fc.oneof(fc.constantFrom('junior', 'senior'), hostileString()), { maxLength: 6 }),
    regMode: fc.oneof(fc.constantFrom('open', 'invite', 'waitlist'), hostileString()),
    capacity: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), hostileString()),
    price: fc.oneof(fc.constantFrom('free', 'paid', 'unknown'), hostileString()),
    priceAmount: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), hostileString()),
    url: fc.oneof(
      httpUrl,
      hostileString(),
      fc.constantFrom('javascript:alert(1)', 'data:text/html,<script>x</script>'),
    ),
    visibility: fc.oneof(fc.constantFrom('public', 'unlisted'), hostileString()),
    country: fc.oneof(fc.constantFrom('ch', 'de', 'at', 'fr', 'CH'), hostileString()),
    lat: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(47.37)),
    lng: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(8.54)),
    [INJECTIONS[0]]: hostileString(),
    action: fc.oneof(fc.constantFrom('cancel', 'restore'), hostileString()),
  },
  { requiredKeys: [] },
);

/** A valid submission with a few fields (sometimes none, sometimes all) replaced by anything at all. */
/** A submission with some or all of its fields hostile; `accepted` when none is (it must then be taken). */
const anySubmission = fc
  .tuple(acceptedSubmission, hostileFields, fc.integer({ min: 0, max: 3 }), fc.boolean())
  .map(([valid, hostile, n, all]) => {
    if (all) return { submission: hostile as Record<string, unknown>, accepted: false };
    const replaced = Object.entries(hostile).slice(0, n);
    return {
      submission: { ...valid, ...Object.fromEntries(replaced) } as Record<string, unknown>,
      accepted: replaced.length === 0,
    };
  });

describe('fuzzing the write API', () => {
  let server: TestServer;
  let key: string;
  let api: string;

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-01-15T12:00:00Z' });
    key = await server.createKey(HOST, 'ch');
    api = `${server.base}/api/events`;
  });
  afterAll(() => server?.close());

  const counts = async () => {
    const { rows } = await sql<{ events: number; revisions: number }>`
      select (select count(*) from events) as events, (select count(*) from event_revisions) as revisions`.execute(
      server.service.ctx.storage.db,
    );
    return rows[0]!;
  };

  const mineById = async (id: string, as = key) => {
    const mine = await request(`${api}?mine=1`, { key: as });
    expect(mine.status).toBe(200);
    return mine.body.events.find((e: { id: string }) => e.id === id);
  };

  it('accepts hostile but valid submissions and reads every field back exactly (text trimmed)', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(acceptedSubmission, async (submission) => {
        runs++;
        // A key per run keeps mine=1 small (it reads whole rows, descriptions included).
        const own = await server.createKey(HOST, 'ch');
        const res = await request(api, { key: own, json: submission });
        expect([200, 201], `${res.status} ${res.text.slice(0, 500)}`).toContain(res.status);
        const stored = await mineById(res.body.id, own);
        expect(stored, 'in mine=1').toBeDefined();
        expect(stored.title).toBe(submission.title.trim());
        expect(stored.start).toBe(instantOf(submission.startAt));
        expect(stored.venue).toBe(submission.venue?.trim());
        expect(stored.city).toBe(submission.city?.trim());
        expect(stored.organizer).toBe(submission.organizer?.trim() ?? HOST);
        expect(stored.externalId).toBe(submission.externalId ?? null);
        expect(stored.format).toBe(submission.format ?? 'in_person');
        expect(stored.rsvp).toBe(submission.regMode ?? 'open');
        expect(stored.visibility).toBe(submission.visibility ?? 'public');
        expect(stored.sourceUrl).toBe(submission.url ?? res.body.url);
        expect(stored.price.type).toBe(submission.price ?? 'unknown');
        // Kept as sent; a blank description is none.
        expect(stored.description).toBe(
          submission.description !== undefined && visible(submission.description) ? submission.description : null,
        );
        expect(stored.capacity).toBe(submission.capacity ?? null);
        if (submission.topics) expect(stored.topics).toEqual([...new Set(submission.topics)]);
        if (submission.seniority) expect(stored.seniority).toEqual(submission.seniority);
        expect(res.body.url).toBe(
          `${server.base}/${res.body.url.split('/')[3]}/events/${encodeURIComponent(stored.id)}`,
        );
        expect(stored.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        // The revision log keeps the body exactly as received.
        const log = await server.service.ctx.events.revisions(stored.id);
        expect(log.at(-1)!.submission).toEqual(submission);
        // An identical resend with an externalId changes nothing.
        if (submission.externalId !== undefined) {
          const again = await request(api, { key: own, json: submission });
          expect(again.status).toBe(200);
          // An event already over is warned of again, as the first time (dates may be in the past).
          const warned = res.body.warnings ? { warnings: res.body.warnings } : {};
          expect(again.body).toEqual({ id: stored.id, url: res.body.url, created: false, ...warned });
          expect(await server.service.ctx.events.revisions(stored.id)).toHaveLength(log.length);
        }
      }),
      fuzzParams(200),
    );
    expect(runs).toBeGreaterThanOrEqual(Math.min(200, Number(process.env.FUZZ_RUNS ?? 200)));
  });

  it('answers any submission with a 2xx or a problem+json 4xx; a rejected one changes nothing', async () => {
    let accepted = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(anySubmission, async ({ submission, accepted: valid }) => {
        const before = await counts();
        const res = await request(api, { key, json: submission });
        expectNoServerError(res, server.base, JSON.stringify(submission).slice(0, 300));
        if (valid)
          expect([200, 201], `${JSON.stringify(submission).slice(0, 300)} → ${res.text}`).toContain(res.status);
        if (res.status >= 400) {
          rejected++;
          expectProblem(res, server.base);
          expect(await counts()).toEqual(before);
          if (res.status === 422) {
            expect(Array.isArray(res.body.errors)).toBe(true);
            expect(res.body.errors.length).toBeGreaterThan(0);
          }
        } else {
          accepted++;
        }
      }),
      fuzzParams(250),
    );
    expect(rejected).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
    console.log(`fuzz-write any submission: ${accepted} accepted, ${rejected} rejected`);
  });

  it('answers arbitrary JSON, non-JSON and odd content types with problems', async () => {
    const body = fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      hostileString(),
      fc.constantFrom('{', '{"title":', '[1,2', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{}}}', ''),
    );
    const contentType = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'application/problem+json',
    );
    await fc.assert(
      fc.asyncProperty(body, contentType, async (text, type) => {
        const before = await counts();
        const res = await request(api, { key, body: text, headers: { 'content-type': type } });
        expectNoServerError(res, server.base, `${type}: ${text.slice(0, 200)}`);
        if (res.status >= 400) expect(await counts()).toEqual(before);
      }),
      fuzzParams(150),
    );
  });

  it('answers hostile cancel and restore targets with problems, and hostile DELETE queries too', async () => {
    const created = await request(api, {
      key,
      json: { title: 'Lifecycle Target', startAt: '2026-06-01T18:00:00+02:00', externalId: 'target' },
    });
    expect(created.status).toBe(201);
    const target = fc.record(
      {
        action: fc.oneof(fc.constantFrom('cancel', 'restore'), hostileString()),
        externalId: fc.oneof(fc.constant('target'), hostileOrLong(200)),
        id: fc.oneof(fc.constant(created.body.id), hostileOrLong(200)),
        country: fc.oneof(fc.constantFrom('ch', 'de', 'xx'), hostileString()),
        extra: hostileString(),
      },
      { requiredKeys: ['action'] },
    );
    await fc.assert(
      fc.asyncProperty(target, async (body) => {
        const res = await request(api, { key, json: body });
        expectNoServerError(res, server.base, JSON.stringify(body));
      }),
      fuzzParams(150),
    );
    const query = fc.array(
      fc.tuple(
        fc.oneof(fc.constantFrom('id', 'externalId', 'country', 'mine', 'q'), hostileString()),
        fc.oneof(fc.constant('target'), hostileOrLong(200)),
      ),
      { maxLength: 4 },
    );
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const search = new URLSearchParams(pairs); // lone surrogates become U+FFFD, like a browser would send
        const res = await request(`${api}?${search}`, { key, method: 'DELETE' });
        expectNoServerError(res, server.base, search.toString());
      }),
      fuzzParams(150),
    );
    // Raw percent-escapes that are not UTF-8 at all.
    const bytes = fc
      .uint8Array({ minLength: 1, maxLength: 12 })
      .map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join(''));
    await fc.assert(
      fc.asyncProperty(bytes, bytes, async (name, value) => {
        const res = await request(`${api}?${name}=${value}&externalId=${value}`, { key, method: 'DELETE' });
        expectNoServerError(res, server.base, `${name}=${value}`);
      }),
      fuzzParams(100),
    );
  });

  it('answers any Authorization header with 401 problems (and WWW-Authenticate), never a 5xx', async () => {
    const token = fc.oneof(
      fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 120 }),
      fc.constantFrom(`${key}x`, key.toUpperCase(), key.slice(0, -1), `tev_${'0'.repeat(12)}_${'A'.repeat(43)}`),
      fc.stringMatching(/^tev_[a-f0-9]{12}_[A-Za-z0-9_-]{43}$/),
    );
    const scheme = fc.constantFrom('Bearer ', 'bearer ', 'Basic ', '', 'Bearer  ', 'Token ');
    await fc.assert(
      fc.asyncProperty(scheme, token, async (prefix, value) => {
        const res = await request(api, {
          json: { title: 'x', startAt: '2026-06-01T18:00:00+02:00' },
          headers: { authorization: `${prefix}${value}` },
        });
        expect(res.status, `${prefix}${value}`).toBe(401);
        expectProblem(res, server.base);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }),
      fuzzParams(150),
    );
  });
});

describe.each(ENGINES)('a leading U+FEFF in an untrimmed field on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { now: '2026-01-15T12:00:00Z' });
  });
  afterAll(() => server?.close());

  // Known defect of the embedded engine: PGlite's protocol reader decodes each text value with a default
  // TextDecoder, which swallows a leading U+FEFF ("byte order mark"). The value is stored intact but reads back
  // without it, so an identical resend looks like a change. `it.fails` pins it: when PGlite is fixed, this
  // test starts failing and the marker must go (and the generator above may produce leading U+FEFF again).
  (engine === 'pglite' ? it.fails : it)('reads back exactly, and an identical resend adds no revision', async () => {
    const key = await server.createKey(HOST, 'ch');
    const submission = {
      title: 'BOM Night',
      startAt: '2026-06-01T18:00:00+02:00',
      externalId: '\ufeffbom-1',
      description: '\ufeffStarts with a BOM',
    };
    const res = await request(`${server.base}/api/events`, { key, json: submission });
    expect(res.status).toBe(201);
    const again = await request(`${server.base}/api/events`, { key, json: submission });
    expect(again.body).toMatchObject({ id: res.body.id, created: false });
    expect(await server.service.ctx.events.revisions(res.body.id)).toHaveLength(1);
    const mine = await request(`${server.base}/api/events?mine=1`, { key });
    expect(mine.body.events[0].externalId).toBe('\ufeffbom-1');
  });
});
