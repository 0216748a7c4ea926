import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeText } from '../src/catalogue/address.js';
import {
  cellText,
  expectSecurityHeaders,
  htmlText,
  icalText,
  parseCalendar,
  parseMarkdownTable,
  parsePage,
} from './helpers/documents.js';
import { acceptableText, fuzzParams, visible } from './helpers/fuzz.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Events with hostile titles, venues, organizers and descriptions, rendered by every output and read back by real
 * parsers: markdown (GFM), iCalendar (ical.js) and HTML (parse5). Each run's event is the only listed one (it is
 * cancelled after its run), so each document holds exactly it.
 */

const CITIES: [string, string][] = [
  ['Zürich', 'ch'],
  ['Genève', 'ch'],
  ['Bern', 'ch'],
  ['Berlin', 'de'],
  ['München', 'de'],
  ['Wien', 'at'],
  ['Graz', 'at'],
];

/** Text the write API accepts, hostile otherwise. */
const text = acceptableText;

const hostileEvent = fc.record(
  {
    title: text(300),
    venue: text(300),
    organizer: text(200),
    // A leading U+FEFF is swallowed by PGlite (see fuzz-write.test.ts); descriptions are stored untrimmed.
    description: text(2000).map((s) => s.replace(/^\ufeff+/, '') || 'x'),
    city: fc.constantFrom(...CITIES),
    format: fc.constantFrom('in_person', 'online', 'hybrid'),
    day: fc.integer({ min: 1, max: 300 }),
  },
  { requiredKeys: ['title', 'city', 'format', 'day'] },
);

describe('hostile events in markdown, iCal and HTML', () => {
  let server: TestServer;
  const NOW = Date.parse('2026-01-15T12:00:00Z');

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: new Date(NOW).toISOString() });
  });
  afterAll(() => server?.close());

  it('keeps every document well-formed and every value intact', async () => {
    const key = await server.createKey('Render Host', 'ch');
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(hostileEvent, async (e) => {
        runs++;
        const [city, country] = e.city;
        const start = new Date(NOW + e.day * 86_400_000).toISOString().replace('.000Z', 'Z');
        const submission = {
          title: e.title,
          startAt: start,
          city,
          format: e.format,
          ...(e.venue !== undefined ? { venue: e.venue } : {}),
          ...(e.organizer !== undefined ? { organizer: e.organizer } : {}),
          ...(e.description !== undefined ? { description: e.description } : {}),
          url: 'https://example.org/tickets',
        };
        const created = await request(`${server.base}/api/events`, { key, json: submission });
        expect(created.status, created.text).toBe(201);
        const id: string = created.body.id;
        const page = `${server.base}/${country}/events/${id}`;
        expect(created.body.url).toBe(page);

        const title = e.title.trim();
        const organizer = e.organizer?.trim() ?? 'Render Host';
        // The place line's own rule (a venue ending in its city names it once) is tested in importers-sources.
        const place = placeText(e.venue?.trim(), city);
        const where = e.format === 'online' ? 'Online' : e.format === 'hybrid' ? `${place} · also online` : place;
        const description = e.description !== undefined && visible(e.description) ? e.description : undefined;

        try {
          // Markdown: one 5-cell row, each value in its own cell, nothing rendered as markup.
          const md = await request(`${server.base}/${country}.md`);
          expect(md.status).toBe(200);
          const rows = parseMarkdownTable(md.text, server.base);
          expect(rows).toHaveLength(2);
          expect(rows[1]![1]).toBe(cellText(title));
          expect(rows[1]![2]).toBe(cellText(where));
          expect(rows[1]![3]).toBe(cellText(organizer));

          // iCal, the event's own file and the country feed: SUMMARY, LOCATION, DESCRIPTION read back exactly
          // (iCalendar TEXT has one kind of line break).
          for (const url of [`${page}.ics`, `${server.base}/api/calendar?country=${country}`]) {
            const ics = await request(url);
            expect(ics.status).toBe(200);
            const { events } = parseCalendar(ics.text);
            expect(events).toHaveLength(1);
            const { e: vevent } = events[0]!;
            expect(vevent.summary).toBe(icalText(title));
            expect(vevent.location).toBe(icalText(where));
            expect(vevent.description).toBe(
              icalText(
                [
                  'Tickets and details: https://example.org/tickets',
                  `Event page: ${page}`,
                  `Host: ${organizer}`,
                  ...(description ? [description] : []),
                ].join('\n\n'),
              ),
            );
            expect(vevent.startDate.toJSDate().toISOString()).toBe(new Date(start).toISOString());
          }

          // HTML: the title is text in <title> and <h1>, never markup; the only script is the JSON-LD, which parses.
          const html = await request(page);
          expect(html.status).toBe(200);
          expectSecurityHeaders(html.headers, page);
          const doc = parsePage(html.text);
          expect(doc.text(doc.byTag('h1')[0]!)).toBe(htmlText(title));
          expect(doc.text(doc.byTag('title')[0]!)).toBe(htmlText(title).replace(/\n/g, '\n'));
          const scripts = doc.byTag('script');
          expect(scripts).toHaveLength(1);
          expect(doc.attr(scripts[0]!, 'type')).toBe('application/ld+json');
          const ld = JSON.parse(doc.text(scripts[0]!));
          expect(ld.name).toBe(title);
          expect(ld.organizer.name).toBe(organizer);
          if (description) expect(ld.description).toBe(description);
          const og = doc.byTag('meta').find((m) => doc.attr(m, 'property') === 'og:title');
          expect(doc.attr(og!, 'content')).toBe(htmlText(title));

          // The search page, asked for the title: the query is echoed as text into the form, no script anywhere.
          const search = await request(`${server.base}/${country}?q=${encodeURIComponent(title.slice(0, 500))}`);
          expect([200, 422]).toContain(search.status);
          expectSecurityHeaders(search.headers);
          const searchDoc = parsePage(search.text);
          expect(searchDoc.byTag('script')).toHaveLength(0);
          const input = searchDoc.byTag('input').find((i) => searchDoc.attr(i, 'name') === 'q');
          expect(searchDoc.attr(input!, 'value')).toBe(htmlText(title.slice(0, 500)));
        } finally {
          await request(`${server.base}/api/events?id=${encodeURIComponent(id)}`, { key, method: 'DELETE' });
        }
      }),
      fuzzParams(150),
    );
    expect(runs).toBeGreaterThan(0);
  });
});

describe('injection into calendar and markdown structure (regressions found by the properties above)', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-01-15T12:00:00Z' });
    key = await server.createKey('Regression Host', 'ch');
  });
  afterAll(() => server?.close());

  const INJECTED = 'Hi\r\nBEGIN:VEVENT\r\nUID:evil\r\nSUMMARY:Injected\r\nURL:https://evil.example/\r\nEND:VEVENT';

  it("keeps a title's line breaks from adding lines to the event's own .ics (NAME, X-WR-CALNAME)", async () => {
    const created = await request(`${server.base}/api/events`, {
      key,
      json: { title: INJECTED, startAt: '2026-03-01T18:00:00+01:00', city: 'Bern' },
    });
    expect(created.status).toBe(201);
    const ics = await request(`${created.body.url}.ics`);
    const { component, events } = parseCalendar(ics.text);
    expect(events.map(({ e }) => e.uid)).not.toContain('evil');
    // A calendar name is one line: its line breaks become spaces (ical.js reads X- properties without unescaping).
    expect(component.getFirstPropertyValue('x-wr-calname')).toBe(INJECTED.replace(/\r\n/g, ' '));
  });

  it("keeps a query's line breaks inside the calendar name of /api/calendar (anyone can craft that URL)", async () => {
    const q = 'x\r\nBEGIN:VEVENT\r\nUID:evil\r\nSUMMARY:Injected\r\nEND:VEVENT\r\n';
    const res = await request(`${server.base}/api/calendar?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    const { events } = parseCalendar(res.text);
    expect(events.map(({ e }) => e.uid)).not.toContain('evil');
  });

  it('shows URL-like text in a markdown cell exactly (no stray backslashes from GFM autolink literals)', async () => {
    const venue = 'Hall http://example.org/a_b*c* and www.example.com/<b>';
    const created = await request(`${server.base}/api/events`, {
      key,
      json: { title: 'Autolink Night', startAt: '2026-03-02T18:00:00+01:00', city: 'Basel', venue },
    });
    expect(created.status).toBe(201);
    const rows = parseMarkdownTable((await request(`${server.base}/ch.md?q=Autolink`)).text, server.base);
    expect(rows.find((r) => r[1] === 'Autolink Night')?.[2]).toBe(`${venue}, Basel`);
  });
});
