import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alsoListedAt, groupDuplicates } from '../src/catalogue/duplicates.js';
import { sourceOwner } from '../src/catalogue/event.js';
import { isTopic } from '../src/catalogue/taxonomy.js';
import { SHIPPED_FEEDS_FILE } from '../src/config.js';
import { confsTechImporter } from '../src/importers/confs-tech.js';
import { loadFeeds } from '../src/importers/feeds.js';
import { icalImporter } from '../src/importers/ical.js';
import { jsonlImporter } from '../src/importers/jsonl.js';
import { resolveCity } from '../src/places/gazetteer.js';
import { rowToEvent } from '../src/storage/event-rows.js';
import { runImport } from '../src/use-cases/import-records.js';
import { seedFromFeeds } from '../src/use-cases/seed-catalogue.js';
import { openTestContext, type TestContext } from './helpers/context.js';
import { ENGINES } from './helpers/engines.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const ICS = fixture('meetup-zurich-ai.ics');
const SERIES = 'event_300000001@meetup.com';
const withoutEvent = (ics: string, uid: string) =>
  ics.replace(new RegExp(`BEGIN:VEVENT\\r\\n(?:(?!END:VEVENT)[\\s\\S])*UID:${uid}\\r\\nEND:VEVENT\\r\\n`), '');

describe.each(ENGINES)('importers through runImport on %s', (engine) => {
  let t: TestContext;
  const owner = sourceOwner('zurich-ai');
  const find = (externalId: string) => t.ctx.events.findByExternalId(owner, externalId);
  const importIcs = (ics: string, now?: string) =>
    runImport(now ? t.at(now) : t.ctx, icalImporter, ics, {
      source: 'zurich-ai',
      cancelMissing: true,
      defaultCountry: 'ch',
    });

  beforeAll(async () => {
    t = await openTestContext(engine, '2026-03-01T12:00:00Z');
  });
  afterAll(() => t?.close());

  it('loads an iCal feed: counts, bad VEVENTs reported by name, the rest stored and enriched', async () => {
    const report = await importIcs(ICS);
    expect(report).toMatchObject({ created: 12, updated: 0, unchanged: 0, cancelled: 1, restored: 0 });
    expect(report.skipped).toEqual([
      { record: '"Mystery Meetup" (event_300000006@meetup.com)', message: 'no DTSTART' },
      {
        record: '"Broken Date Night" (event_300000007@meetup.com)',
        message: 'DTSTART "20261345T990000" is not a real date-time',
      },
    ]);
    const events = await t.ctx.events.listByOwner(owner);
    expect(events).toHaveLength(12);
    for (const e of events) {
      expect(e.source).toBe('zurich-ai');
      expect(e.country).toBe('ch');
      expect(e.topics.every(isTopic)).toBe(true);
    }
    const night = await find(`${SERIES}#20260324T173000Z`);
    expect(night).toMatchObject({ title: 'Paper Reading Night', city: 'Zürich', geoPrecision: 'exact', lat: 47.3813 });
    expect(night).toMatchObject({ organizer: 'Zurich AI Meetup', venue: 'Impact Hub, Sihlquai 131, 8005 Zürich' });
    expect(night?.topics).toContain('ai-ml');
    expect(night?.url).toBe('https://www.meetup.com/zurich-ai-meetup/events/300000001/');
  });

  it('expands the weekly series in local time across the DST change, skips the EXDATE, applies the override', async () => {
    const instances = (await t.ctx.events.listByOwner(owner))
      .filter((e) => e.externalId?.startsWith(`${SERIES}#`))
      .sort((a, b) => a.start.getTime() - b.start.getTime());
    expect(instances.map((e) => e.start.toISOString())).toEqual([
      '2026-03-03T17:30:00.000Z',
      '2026-03-10T17:30:00.000Z',
      '2026-03-17T17:30:00.000Z',
      '2026-03-24T17:30:00.000Z', // 18:30 CET
      '2026-03-31T16:30:00.000Z', // 18:30 CEST, after the change on 29 March
      // 7 April: EXDATE
      '2026-04-14T17:00:00.000Z', // overridden: 19:00 CEST
      '2026-04-21T16:30:00.000Z',
      '2026-04-28T16:30:00.000Z',
    ]);
    expect(instances.map((e) => e.end?.toISOString())).toContain('2026-03-31T19:00:00.000Z');
    const special = instances[5]!;
    expect(special).toMatchObject({ title: 'Paper Reading Night: Special Guest from ETH', lat: 47.3763 });
    expect(special.externalId).toBe(`${SERIES}#20260414T163000Z`);
  });

  it('stores cancellations, all-day events, floating times and online events as the feed says', async () => {
    const k8s = await find('event_300000002@meetup.com');
    expect(k8s).toMatchObject({ lifecycle: 'cancelled', start: new Date('2026-03-18T17:00:00Z') });
    const days = await find('event_300000003@meetup.com');
    expect(days).toMatchObject({ allDay: true, city: 'Bern', geoPrecision: 'city' });
    expect(days?.start.toISOString()).toBe('2026-04-14T22:00:00.000Z'); // 15 April, local midnight
    expect(days?.end?.toISOString()).toBe('2026-04-16T22:00:00.000Z'); // through 16 April (DTEND 17 exclusive)
    const hack = await find('event_300000004@meetup.com');
    expect(hack).toMatchObject({ start: new Date('2026-03-20T17:00:00Z'), city: 'Winterthur' });
    expect(hack?.url).toBe('https://hacknight.example.ch/2026-03');
    const webinar = await find('event_300000005@meetup.com');
    expect(webinar).toMatchObject({ format: 'online', city: null, geoPrecision: 'country', country: 'ch' });
  });

  it('re-imports without duplicates; changes update (revision grows); a vanished event is cancelled, then restored', async () => {
    const again = await importIcs(ICS);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 12, cancelled: 0, restored: 0 });
    expect(await t.ctx.events.listByOwner(owner)).toHaveLength(12);

    const changed = withoutEvent(ICS, 'event_300000005@meetup.com').replace(
      'SUMMARY:Hack Night Winterthur',
      'SUMMARY:Hack Night Winterthur: Spring Edition',
    );
    const third = await importIcs(changed);
    expect(third).toMatchObject({ created: 0, updated: 1, unchanged: 10, cancelled: 1, restored: 0 });
    const hack = await find('event_300000004@meetup.com');
    expect(hack).toMatchObject({ title: 'Hack Night Winterthur: Spring Edition', revision: 2 });
    const gone = await find('event_300000005@meetup.com');
    expect(gone).toMatchObject({ lifecycle: 'cancelled', title: 'LLM Ops Webinar' });

    const fourth = await importIcs(ICS);
    expect(fourth).toMatchObject({ created: 0, updated: 1, unchanged: 11, cancelled: 0, restored: 1 });
    expect(await find('event_300000005@meetup.com')).toMatchObject({ lifecycle: 'listed', title: 'LLM Ops Webinar' });
    const log = await t.ctx.events.revisions(gone!.id);
    expect(log.map((r) => r.action)).toEqual(['create', 'cancel', 'restore']);
    expect(await t.ctx.events.listByOwner(owner)).toHaveLength(12);
  });

  it('does not cancel instances that merely fell into the past, nor anything when the feed is unreadable', async () => {
    const later = await importIcs(ICS, '2026-04-10T00:00:00Z');
    expect(later).toMatchObject({ created: 0, cancelled: 0 });
    expect((await find(`${SERIES}#20260303T173000Z`))?.lifecycle).toBe('listed');
    const broken = await importIcs('<html><body>502 Bad Gateway</body></html>');
    expect(broken.skipped).toEqual([{ record: '(file)', message: 'not an iCalendar feed (no BEGIN:VCALENDAR)' }]);
    expect(broken.cancelled).toBe(0);
    expect((await t.ctx.events.listByOwner(owner)).filter((e) => e.lifecycle === 'listed')).toHaveLength(11);
  });

  it('loads confs.tech JSON, reports the malformed record by name and counts the foreign one as elsewhere', async () => {
    const report = await runImport(t.ctx, confsTechImporter, fixture('confs-tech-excerpt.json'), { source: 'confs' });
    expect(report).toMatchObject({ created: 6, updated: 0, cancelled: 0, elsewhere: 1 });
    expect(report.skipped.map((s) => s.record)).toEqual(['#4 "Frontend Nation Day"']);
    expect(report.skipped[0]!.message).toMatch(/^url: /);
    const pgday = await t.ctx.events.findByExternalId(sourceOwner('confs'), 'Swiss PGDay@2026-06-25');
    expect(pgday).toMatchObject({ city: 'Rapperswil', country: 'ch', allDay: true, geoPrecision: 'city' });
    const again = await runImport(t.ctx, confsTechImporter, fixture('confs-tech-excerpt.json'), { source: 'confs' });
    expect(again).toMatchObject({ created: 0, unchanged: 6 });
  });

  it('loads JSON lines with the write API rules, reporting each bad line with its field', async () => {
    const report = await runImport(t.ctx, jsonlImporter, fixture('events.jsonl'), { source: 'bulk' });
    expect(report).toMatchObject({ created: 3, updated: 0 });
    expect(report.skipped).toEqual([
      { record: 'line 4', message: expect.stringMatching(/^startAt: must be an ISO 8601 date-time with a UTC offset/) },
      { record: 'line 6', message: 'externalId: is required (it is the source id of the line)' },
      { record: 'line 7', message: 'tickets: is not a known field; priceAmount: is only allowed with price = paid' },
    ]);
    const find = (id: string) => t.ctx.events.findByExternalId(sourceOwner('bulk'), id);
    expect(await find('bb-2026-04')).toMatchObject({ country: 'de', geoPrecision: 'exact', capacity: 120 });
    expect(await find('vie-sec-1')).toMatchObject({
      country: 'at',
      city: 'Wien',
      priceAmount: '25.00',
      currency: 'EUR',
    });
    expect(await find('online-1')).toMatchObject({ country: 'de', format: 'online', visibility: 'unlisted' });
  });

  it('takes from JSON lines every field the write API takes: all-day dates, the call for papers, the language', async () => {
    const lines = [
      {
        externalId: 'allday-1',
        title: 'Swiss Data Day',
        startAt: '2026-09-10',
        endAt: '2026-09-11',
        allDay: true,
        city: 'Bern',
        cfpUrl: 'https://example.org/cfp',
        cfpUntil: '2026-06-30T23:59:00+02:00',
        language: 'de',
      },
    ].map((line) => JSON.stringify(line));
    const report = await runImport(t.ctx, jsonlImporter, lines.join('\n'), { source: 'bulk-fields' });
    expect(report).toMatchObject({ created: 1, skipped: [] });
    const stored = await t.ctx.events.findByExternalId(sourceOwner('bulk-fields'), 'allday-1');
    expect(stored).toMatchObject({
      allDay: true,
      start: new Date('2026-09-09T22:00:00Z'),
      end: new Date('2026-09-11T22:00:00Z'),
      cfpUrl: 'https://example.org/cfp',
      language: 'de',
    });
    expect(stored!.cfpUntil).toMatch(/^2026-06-30/);
  });

  it('stores a background import in chunks that leave the event loop to reads in between', async () => {
    const lines = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({ externalId: `bg-${i}`, title: `Background Meetup ${i}`, startAt: '2026-10-01T18:00:00+02:00' }),
    );
    let turns = 0;
    const ticker = setInterval(() => turns++, 1);
    const report = await runImport(t.ctx, jsonlImporter, lines.join('\n'), {
      source: 'bulk-background',
      defaultCountry: 'ch',
      background: true,
    });
    clearInterval(ticker);
    expect(report).toMatchObject({ created: 300, skipped: [] });
    // Three chunks of 100, each followed by a pause at least as long as it: timers ran during the import.
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it('shows an event reached through two sources once, keeping both links', async () => {
    const feed = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:pgday-2026@pgday.ch',
      'SUMMARY:Swiss PGDay 2026',
      'DTSTART;TZID=Europe/Zurich:20260625T090000',
      'DTEND;TZID=Europe/Zurich:20260625T180000',
      'LOCATION:OST Campus\\, Oberseestrasse 10\\, 8640 Rapperswil-Jona',
      'GEO:47.2233;8.8167',
      'URL:https://2026.pgday.ch/schedule/',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const report = await runImport(t.ctx, icalImporter, feed, { source: 'pgday' });
    expect(report.created).toBe(1);
    const rows = await t.ctx.storage.db.selectFrom('events').selectAll().execute();
    const groups = groupDuplicates(rows.map(rowToEvent).filter((e) => e.lifecycle === 'listed'));
    const pgday = groups.filter((g) => /pgday/i.test(g.canonical.title));
    expect(pgday).toHaveLength(1);
    expect(pgday[0]!.canonical.source).toBe('pgday'); // timed, exact point: richer than the all-day listing
    expect(pgday[0]!.duplicates.map((e) => e.source)).toEqual(['confs']);
    expect(alsoListedAt(pgday[0]!)).toEqual(['https://2026.pgday.ch']);
  });
});

describe.each(ENGINES)('the shipped snapshots on %s', (engine) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await openTestContext(engine, '2025-03-01T00:00:00Z');
  });
  afterAll(() => t?.close());

  it('loads the seeds of the shipped feeds once: 196 confs.tech conferences and 9 devopsdays, all in ch/de/at', async () => {
    const feeds = await loadFeeds(new URL('../feeds.json', import.meta.url).pathname);
    const reports = await seedFromFeeds(t.ctx, feeds);
    expect(reports.map((r) => [r.source, r.created, r.skipped.length, r.elsewhere])).toEqual([
      ['confs-tech', 196, 0, 0],
      ['devopsdays', 9, 0, 0],
    ]);
    const events = [
      ...(await t.ctx.events.listByOwner(sourceOwner('confs-tech'))),
      ...(await t.ctx.events.listByOwner(sourceOwner('devopsdays'))),
    ];
    expect(events).toHaveLength(205);
    for (const e of events) {
      expect(['ch', 'de', 'at'], e.title).toContain(e.country);
      expect(['city', 'exact'], e.title).toContain(e.geoPrecision);
      expect(e.city, e.title).toBeTruthy();
      expect(e.topics.length, e.title).toBeGreaterThan(0);
      expect(e.topics.every(isTopic), e.title).toBe(true);
      expect(e.sourceUrl).toMatch(/^https?:\/\//);
    }
    const states = await t.ctx.sources.list();
    expect(states.map((s) => [s.source, s.snapshotOf, s.lastAttemptAt])).toEqual([
      ['confs-tech', '2026-12-01', null],
      ['devopsdays', '2026-11-23', null],
    ]);
    expect(await seedFromFeeds(t.ctx, feeds)).toEqual([]);
  });
});

describe('JSON lines parsed in steps', () => {
  it('gives what one parse gives, errors and duplicates across steps included, pausing between steps', async () => {
    const lines = Array.from({ length: 600 }, (_, i) =>
      i === 300
        ? '{ not json'
        : JSON.stringify({
            // Line 551 repeats the externalId of line 11, two steps apart.
            externalId: `step-${i === 550 ? 10 : i}`,
            title: `Stepped Meetup ${i}`,
            startAt: '2026-10-01T18:00:00+02:00',
            city: 'Basel',
          }),
    );
    const input = [fixture('events.jsonl'), ...lines].join('\n');
    const options = { now: new Date('2026-03-01T12:00:00Z') };
    let pauses = 0;
    const stepped = await jsonlImporter.parseInSteps!(input, options, async () => {
      pauses++;
    });
    expect(stepped).toEqual(jsonlImporter.parse(input, options));
    expect(stepped.errors.map((e) => e.record)).toContain(`line ${input.split('\n').length - 299}`);
    expect(stepped.errors.some((e) => /already used on line/.test(e.message))).toBe(true);
    expect(pauses).toBe(Math.ceil(input.split('\n').length / 250) - 1);
  });
});

describe.each(ENGINES)('an event placed at its venue’s city, as people meet it on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    // The shipped feeds with their snapshots, on the day of the issue: devopsdays Zurich 2027 is ahead.
    server = await startTestServer(engine, {
      now: '2026-12-01T12:00:00Z',
      env: { SEED: '1', FEEDS_FILE: SHIPPED_FEEDS_FILE },
    });
  });
  afterAll(() => server?.close());

  it('lists devopsdays Zurich in Winterthur, at Winterthur, and its page names the place once', async () => {
    const res = await fetch(`${server.base}/api/events?q=devopsdays&country=ch`);
    expect(res.status).toBe(200);
    const { events } = (await res.json()) as {
      events: { title: string; city: string; venue: string; geo: unknown; url: string }[];
    };
    const zurich = events.find((e) => e.title === 'devopsdays Zurich 2027');
    const winterthur = resolveCity('Winterthur')!;
    expect(zurich).toMatchObject({
      city: 'Winterthur',
      venue: 'Alte Kaserne Winterthur, Technikumstrasse 8, 8400 Winterthur, Switzerland',
      geo: { lat: winterthur.lat, lng: winterthur.lng, precision: 'city' },
    });
    const page = await (await fetch(zurich!.url)).text();
    expect(page).toContain('Alte Kaserne Winterthur, Technikumstrasse 8, 8400 Winterthur, Switzerland');
    expect(page).not.toMatch(/Switzerland, Z(?:ü|u)rich|Winterthur, Switzerland, Winterthur/);
  });
});
