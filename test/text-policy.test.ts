import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import ICAL from 'ical.js';
import { parse } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCalendar } from './helpers/documents.js';
import { FORBIDDEN_CODE_POINTS } from './helpers/fuzz.js';
import { adminSync, request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { submission as event } from './helpers/submission.js';

/**
 * The one text policy (docs/api.md, Text and dates): what no output may carry is refused in a host's write and removed
 * from an import; text that shows nothing is refused; dates lie within the years 1970–9999 in every output.
 */

/** C0 and C1 controls, DEL, and noncharacters of the BMP and the astral planes. */
const HOSTILE = [
  '\u0001',
  '\u0007',
  '\u001b',
  '\u000b',
  '\u000c',
  '\u007f',
  '\u0085',
  '\u009f',
  '\ufdd0',
  '\ufffe',
  '\uffff',
  '\u{1fffe}',
  '\u{10ffff}',
];
const hex = (c: string) => c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');

/** Text that shows nothing: zero-width characters, word joiner, BOM, soft hyphen, fillers, with or without spaces. */
const BLANK = [
  '\u200b',
  '\u200b\u200c\u200d',
  ' \u2060 ',
  '\ufeff\u200b',
  '\u00ad',
  '\u3164',
  '\u2800',
  '\u200e\u202e',
];

const TEXT_FIELDS = ['title', 'venue', 'organizer', 'description', 'externalId', 'city'] as const;

/** Every string inside a parsed JSON value. */
const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(strings)
      : value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)])
        : [];

const expectClean = (text: string, context: string) => {
  const found = text.match(FORBIDDEN_CODE_POINTS);
  expect(found?.map(hex) ?? [], context).toEqual([]);
};

/** html-validate's recommended rules, less two of style (a lowercase doctype, trailing spaces in the markup). */
const validator = new HtmlValidate({
  extends: ['html-validate:recommended'],
  rules: { 'doctype-style': 'off', 'no-trailing-whitespace': 'off' },
});

/** The HTML standard's parse errors of a page (parse5 reports them as the tokenizer meets them). */
const htmlErrors = (html: string) => {
  const errors: string[] = [];
  parse(html, { onParseError: (e) => errors.push(`${e.code} at ${e.startLine}:${e.startCol}`) });
  return errors;
};

describe('host writes under the text policy', () => {
  let server: TestServer;
  let key: string;
  let api: string;
  const total = async () => (await request(`${api}?mine=1`, { key })).body.total as number;

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-11-22T12:00:00Z' });
    key = await server.createKey('Text Host', 'ch');
    api = `${server.base}/api/events`;
  });
  afterAll(() => server?.close());

  it('refuses every control character and noncharacter in every text field, naming the field and the code point', async () => {
    const before = await total();
    for (const c of HOSTILE) {
      for (const field of TEXT_FIELDS) {
        const value = field === 'city' ? `Zürich${c}` : `Night${c}Talk`;
        const res = await request(api, { key, json: event({ externalId: `hostile-${field}`, [field]: value }) });
        const context = `U+${hex(c)} in ${field}`;
        expect(res.status, context).toBe(422);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        const error = (res.body.errors as { field: string; message: string }[]).find((e) => e.field === field);
        expect(error?.message, context).toContain(`U+${hex(c)}`);
      }
    }
    // In a batch item too, named with its place in the batch.
    const batch = await request(`${api}/batch`, {
      key,
      json: { events: [event({ externalId: 'batch-1', title: 'Bell\u0007Night' })] },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.results[0].error.errors).toEqual([
      expect.objectContaining({ field: 'events[0].title', message: expect.stringContaining('U+0007') }),
    ]);
    expect(await total()).toBe(before);
  });

  it('keeps tab and line breaks, joiners inside text and astral characters', async () => {
    const title = 'Family 👨‍👩‍👧 Coding\tNight';
    const description = 'Line one\r\nLine two\n\tindented\rend';
    const res = await request(api, { key, json: event({ externalId: 'kept', title, description }) });
    expect(res.status, res.text).toBe(201);
    const stored = (await request(`${api}?mine=1`, { key })).body.events.find(
      (e: { id: string }) => e.id === res.body.id,
    );
    expect(stored.title).toBe(title);
    expect(stored.description).toBe(description);
  });

  it('refuses a required text that shows nothing, zero-width and format characters included', async () => {
    const before = await total();
    for (const blank of BLANK) {
      for (const field of ['title', 'venue', 'organizer', 'externalId'] as const) {
        const res = await request(api, { key, json: event({ externalId: 'blank', [field]: blank }) });
        expect(res.status, `${JSON.stringify(blank)} as ${field}`).toBe(422);
        expect(res.body.errors).toContainEqual(
          expect.objectContaining({ field, message: expect.stringMatching(/^must not be empty/) }),
        );
      }
    }
    expect(await total()).toBe(before);
  });

  it('refuses offsets beyond -12:00 and +14:00, with the message saying that range', async () => {
    for (const [field, value] of [
      ['startAt', '2026-12-03T18:30:00-12:30'],
      ['startAt', '2026-12-03T18:30:00-13:30'],
      ['startAt', '2026-12-03T18:30:00+14:30'],
      ['startAt', '2026-12-03T18:30:00-23:59'],
      ['endAt', '9999-12-31T23:59:59-14:00'],
    ] as const) {
      const res = await request(api, {
        key,
        json: event({ externalId: 'offset', startAt: '2026-12-03T18:30:00+01:00', endAt: undefined, [field]: value }),
      });
      expect(res.status, value).toBe(422);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ field, message: expect.stringContaining('from -12:00 to +14:00') }),
      ]);
    }
    for (const offset of ['-12:00', '+14:00', '-09:30', '+05:45']) {
      const res = await request(api, {
        key,
        json: event({ externalId: `offset${offset}`, startAt: `2026-12-03T18:30:00${offset}`, endAt: undefined }),
      });
      expect(res.status, `${offset}: ${res.text}`).toBe(201);
    }
  });

  it('refuses dates whose year in UTC or in the country’s zone leaves 1970–9999, naming the field', async () => {
    const before = await total();
    const cases: [Record<string, unknown>, string][] = [
      [{ endAt: '9999-12-31T23:30:00Z' }, 'endAt'], // 10000-01-01 in Zürich
      [{ startAt: '1969-12-31T23:30:00Z', endAt: undefined }, 'startAt'],
      [{ startAt: '1970-01-01T00:30:00+01:00', endAt: undefined }, 'startAt'], // 1969 in UTC
      [{ startAt: '0001-01-01T10:00:00Z', endAt: undefined }, 'startAt'],
      [{ allDay: true, startAt: '9999-12-31', endAt: undefined }, 'startAt'], // it ends on 10000-01-01
      [{ allDay: true, startAt: '9999-12-30', endAt: '9999-12-31' }, 'endAt'],
      [{ cfpUrl: 'https://example.org/cfp', cfpUntil: '9999-12-31T23:30:00Z' }, 'cfpUntil'],
      [{ cfpUrl: 'https://example.org/cfp', cfpUntil: '1969-06-01' }, 'cfpUntil'],
    ];
    for (const [change, field] of cases) {
      const res = await request(api, { key, json: event({ externalId: 'years', ...change }) });
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ field, message: expect.stringContaining('within the years 1970 to 9999') }),
      ]);
    }
    expect(await total()).toBe(before);
  });

  it('writes the last accepted instant with four-digit years in JSON and an iCal ical.js reads', async () => {
    const res = await request(api, {
      key,
      json: event({ externalId: 'last', startAt: '9999-12-31T20:00:00Z', endAt: '9999-12-31T22:59:59Z' }),
    });
    expect(res.status, res.text).toBe(201);
    const stored = (await request(`${api}?mine=1`, { key })).body.events.find(
      (e: { id: string }) => e.id === res.body.id,
    );
    expect(stored.end).toBe('9999-12-31T22:59:59.000Z');
    const ics = await request(`${res.body.url}.ics`);
    expect(ics.text).toContain('DTEND;TZID=Europe/Zurich:99991231T235959');
    const { events } = parseCalendar(ics.text);
    expect(events[0]!.e.endDate.toJSDate().toISOString()).toBe('9999-12-31T22:59:59.000Z');
  });
});

/** A feed's iCal with raw control characters and noncharacters in its TEXT values, and an event past 9999. */
const hostileCalendar = (uid: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//hostile//EN',
    'BEGIN:VEVENT',
    `UID:${uid}-1@example.org`,
    'DTSTAMP:20261101T090000Z',
    'DTSTART:20261210T170000Z',
    'DTEND:20261210T190000Z',
    'SUMMARY:Kotlin\u0007 Night\u000cLive\uffff',
    'LOCATION:Impact\u001b Hub\\, Sihlquai 131\\, 8005 Zürich',
    'DESCRIPTION:Talks\u0001 and\u0085drinks\\nSecond line\u007f',
    'END:VEVENT',
    'BEGIN:VEVENT',
    `UID:${uid}-2@example.org`,
    'DTSTAMP:20261101T090000Z',
    'DTSTART:20261211T170000Z',
    'SUMMARY:\u200b\u200d\u0007',
    'LOCATION:Zürich',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

const HOSTILE_QUERY = encodeURIComponent(`Kotlin${HOSTILE.join('')}`);

const jsonLines = [
  { externalId: 'j-1', title: 'Rust\u0007 Meetup\u000bBern\ufdd0', city: 'Bern', description: 'Tab\tkept\u001b.' },
  { externalId: 'j-2', title: '\u200b\u2060', city: 'Bern' },
  { externalId: 'j-3', title: 'Far future', city: 'Bern', endAt: '9999-12-31T23:30:00Z' },
  { externalId: 'j-4', title: 'Far offset', city: 'Bern', startAt: '2026-12-12T18:00:00-13:30', endAt: undefined },
].map((line) => JSON.stringify({ startAt: '2026-12-12T18:00:00+01:00', ...line }));

describe('imports and linked calendars under the text policy', () => {
  let server: TestServer;
  let upstream: Server;
  let dir: string;
  const ADMIN = 'text-policy-admin';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tev-text-'));
    writeFileSync(join(dir, 'events.jsonl'), `${jsonLines.join('\n')}\n`);
    writeFileSync(join(dir, 'calendar.ics'), hostileCalendar('feed'));
    writeFileSync(
      join(dir, 'feeds.json'),
      JSON.stringify([
        { source: 'hostile-lines', format: 'jsonl', url: join(dir, 'events.jsonl') },
        { source: 'hostile-ical', format: 'ical', url: join(dir, 'calendar.ics'), country: 'ch' },
      ]),
    );
    upstream = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/calendar' }).end(hostileCalendar('linked')),
    );
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    server = await startTestServer('pglite', {
      now: '2026-11-22T12:00:00Z',
      env: {
        FEEDS_FILE: join(dir, 'feeds.json'),
        ADMIN_TOKEN: ADMIN,
        CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => upstream?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes what no output may carry, refuses what shows nothing or lies past 9999, and every output stays clean', async () => {
    const { run } = await adminSync(server.base, ADMIN);
    expect(run.status, run.text).toBe(200);
    expect(run.body.state, run.text).toBe('done');

    const key = await server.createKey('Linked Host', 'ch');
    const port = (upstream.address() as AddressInfo).port;
    // A key's name (every event's default organizer) and a calendar link's city are host text too.
    for (const name of ['Host\u0007', '\u200b']) {
      const refused = await request(`${server.base}/api/admin/keys`, { key: ADMIN, json: { name } });
      expect(refused.status, name).toBe(422);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(['name']);
    }
    const badCity = await request(`${server.base}/api/calendars`, {
      key,
      json: { url: `http://127.0.0.1:${port}/hostile.ics`, city: 'Zürich\u001b' },
    });
    expect(badCity.status).toBe(422);
    expect(badCity.body.errors).toEqual([
      expect.objectContaining({ field: 'city', message: expect.stringContaining('U+001B') }),
    ]);
    const linked = await request(`${server.base}/api/calendars`, {
      key,
      json: { url: `http://127.0.0.1:${port}/hostile.ics` },
    });
    expect([201, 202], linked.text).toContain(linked.status);
    for (const until = Date.now() + 30_000; ; ) {
      const calendars = (await request(`${server.base}/api/calendars`, { key })).body.calendars;
      if (calendars[0].state !== 'syncing' || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const mine = (await request(`${server.base}/api/events?mine=1`, { key })).body.events;
    expect(mine.map((e: { title: string }) => e.title)).toEqual(['Kotlin Night Live']);

    const json = await request(`${server.base}/api/events?country=ch&limit=100`);
    expect(json.status).toBe(200);
    const titles = json.body.events.map((e: { title: string }) => e.title).sort();
    // From iCal (the feed and the linked calendar, one event to readers) and the JSON lines; blank and far ones left out.
    expect([...new Set(titles)]).toEqual(['Kotlin Night Live', 'Rust Meetup Bern']);
    for (const text of strings(json.body)) expectClean(text, 'JSON');
    const full = async (title: string) => {
      const one = await request(
        `${server.base}/api/events/${json.body.events.find((e: { title: string }) => e.title === title).id}`,
      );
      for (const text of strings(one.body)) expectClean(text, `JSON of ${title}`);
      return one.body;
    };
    expect((await full('Rust Meetup Bern')).description).toBe('Tab\tkept.');
    const kotlin = await full('Kotlin Night Live');
    expect(kotlin.venue).toBe('Impact Hub, Sihlquai 131, 8005 Zürich');
    expect(kotlin.description).toMatch(/^Talks and drinks\nSecond line/);

    // The blank, the far-future and the far-offset lines skipped; the blank calendar event too, in both calendars.
    const feeds = Object.fromEntries(run.body.feeds.map((f: { source: string }) => [f.source, f]));
    expect(feeds['hostile-lines']).toMatchObject({ created: 1, skipped: 3 });
    expect(feeds['hostile-ical']).toMatchObject({ created: 1, skipped: 1 });
    const calendar = (await request(`${server.base}/api/calendars`, { key })).body.calendars[0];
    expect(calendar.counts).toEqual({ listed: 1, cancelled: 0 });

    const documents = [
      `${server.base}/ch.md`,
      `${server.base}/ch.atom`,
      `${server.base}/api/calendar?country=ch`,
      `${server.base}/ch`,
      `${server.base}/sources`,
      // A query is text that enters too, echoed in titles, headings and the search form.
      ...['/ch', '/ch.md', '/ch.atom', '/api/calendar'].map((path) => `${server.base}${path}?q=${HOSTILE_QUERY}`),
      ...json.body.events.flatMap((e: { url: string }) => [e.url, `${e.url}.ics`]),
    ];
    for (const url of documents) {
      const res = await request(url);
      expect(res.status, url).toBe(200);
      expectClean(res.text, url);
      const { pathname } = new URL(url);
      if (pathname.endsWith('.ics') || pathname === '/api/calendar') {
        const { events } = parseCalendar(res.text);
        for (const { e } of events) {
          for (const text of [e.summary, e.location, e.description]) expectClean(text ?? '', url);
        }
        // Reminders too (VALARM's DESCRIPTION names the title).
        const alarms = new ICAL.Component(ICAL.parse(res.text)).getAllSubcomponents('vevent');
        for (const v of alarms) {
          for (const a of v.getAllSubcomponents('valarm'))
            expectClean(String(a.getFirstPropertyValue('description')), url);
        }
      } else if (!pathname.endsWith('.md') && !pathname.endsWith('.atom')) {
        const forbidden = htmlErrors(res.text).filter((e) => /control-character|noncharacter/.test(e));
        expect(forbidden, url).toEqual([]);
        const report = await validator.validateString(res.text);
        const messages = report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`));
        expect(messages, url).toEqual([]);
      }
    }
  });
});
