import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSync, allEvents, request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2026-11-26T10:00:00Z';
const ADMIN = 'calendar-walks-admin';
const HOUR = 3_600_000;

/** One VEVENT in a calendar, with the lines given; as any exporter writes it. */
const calendar = (...vevent: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//walks//EN',
    'BEGIN:VEVENT',
    'UID:series@example.org',
    'DTSTAMP:20190101T000000Z',
    'SUMMARY:Office hours',
    'LOCATION:Impact Hub, Sihlquai 131, 8005 Zürich',
    ...vevent,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/** What a hostile or careless host serves: series that began long ago, and events ical.js stumbles over. */
const CALENDARS: Record<string, string> = {
  // Hourly since 2019, no end: seven years of hours before the first one to come.
  '/hourly.ics': calendar('DTSTART:20190101T100000Z', 'DTEND:20190101T103000Z', 'RRULE:FREQ=HOURLY'),
  // Every 90 minutes on Mondays since 2019: a fixed step filtered by day.
  '/mondays.ics': calendar('DTSTART:20190101T100000Z', 'RRULE:FREQ=MINUTELY;INTERVAL=90;BYDAY=MO'),
  // A COUNT counts from DTSTART: each hour is one occurrence, so the walk from now knows how many are left.
  '/hourly-count.ics': calendar('DTSTART:20190101T100000Z', 'RRULE:FREQ=HOURLY;COUNT=69270'),
  // With a BY… part a step is not always an occurrence: the count is walked from DTSTART, and runs out of steps.
  '/filtered-count.ics': calendar('DTSTART:20190101T100000Z', 'RRULE:FREQ=HOURLY;BYMINUTE=0;COUNT=1000000'),
  // A rule without FREQ: ical.js fails on it with a TypeError.
  '/no-freq.ics': calendar('DTSTART:20261201T100000Z', 'RRULE:'),
  // An event holding 50,000 VEVENTs nested in each other: ical.js fails on it with a TypeError.
  '/nested.ics': calendar(
    'DTSTART:20261201T100000Z',
    ...Array.from({ length: 50_000 }, () => 'BEGIN:VEVENT'),
    ...Array.from({ length: 50_000 }, () => 'END:VEVENT'),
  ),
};

/** What a host must never be shown: JavaScript's own words for a bug. */
const INTERNALS = /TypeError|RangeError|Cannot read propert|undefined|is not a function|\bat \w+ \(/;

describe('a recurring series is walked from now, and every limit that ends a walk says so', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tev-calendar-walks-'));
  const host: Server = createServer((req, res) => {
    // A redirect to what is not a URL: the URL parser's TypeError must not be what the host reads.
    if (req.url === '/bad-redirect.ics') return res.writeHead(302, { location: 'http://[::1' }).end();
    const body = CALENDARS[req.url ?? '/'];
    if (body === undefined) return res.writeHead(404).end('Not found');
    res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(body);
  });
  let svc: TestServer;
  let key: string;
  let base: string;

  const call = (method: string, path: string, body?: unknown) =>
    request(`${svc.base}${path}`, { method, key, ...(body !== undefined ? { json: body } : {}) });
  /** The key's calendar of that URL once its first read has ended. */
  const settled = async (url: string) => {
    for (const until = Date.now() + 60_000; ; ) {
      const calendars = (await call('GET', '/api/calendars')).body.calendars as Record<string, any>[];
      const found = calendars.find((c) => c.url === url);
      if (found?.state !== 'syncing' || Date.now() > until) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const link = async (path: string) => {
    const res = await call('POST', '/api/calendars', { url: `${base}${path}` });
    return { res, calendar: res.status === 422 ? undefined : await settled(`${base}${path}`) };
  };

  beforeAll(async () => {
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    const feedsFile = join(dir, 'feeds.json');
    writeFileSync(
      feedsFile,
      JSON.stringify([{ source: 'office-hours', format: 'ical', url: `${base}/hourly.ics`, country: 'ch' }]),
    );
    svc = await startTestServer('pglite', {
      now: NOW,
      env: { FEEDS_FILE: feedsFile, CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32', ADMIN_TOKEN: ADMIN },
    });
    key = await svc.createKey('Office Hours', 'ch');
  });
  afterAll(async () => {
    await svc?.close();
    await new Promise((resolve) => host.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('an hourly series since 2019 lists its next 200 hours, and says it was cut', async () => {
    const { res, calendar } = await link('/hourly.ics');
    expect([201, 202]).toContain(res.status);
    expect(calendar).toMatchObject({
      state: 'ok',
      cut: expect.stringMatching(
        /^cut to its first 200 events: a recurring series repeats more than 200 times within the coming 6 months/,
      ),
      counts: { listed: 200 },
    });
    const mine = await allEvents<{ start: string; externalId: string }>(`${svc.base}/api/events?mine=1&limit=100`, {
      key,
    });
    const starts = mine
      .filter((e) => e.externalId.startsWith(`${calendar!.id}|`))
      .map((e) => Date.parse(e.start))
      .sort((a, b) => a - b);
    // From the hour under way at now (10:00-10:30) on, every hour, none skipped and none past.
    expect(starts).toEqual(Array.from({ length: 200 }, (_, i) => Date.parse(NOW) + i * HOUR));
  });

  it('a series of fixed steps filtered by day keeps to its own grid from 2019', async () => {
    const { calendar } = await link('/mondays.ics');
    expect(calendar).toMatchObject({ state: 'ok', cut: expect.stringMatching(/more than 200 times/) });
    const mine = await allEvents<{ start: string; externalId: string }>(`${svc.base}/api/events?mine=1&limit=100`, {
      key,
    });
    const starts = mine.filter((e) => e.externalId.startsWith(`${calendar!.id}|`)).map((e) => Date.parse(e.start));
    expect(starts).toHaveLength(200);
    const dtstart = Date.parse('2019-01-01T10:00:00Z');
    for (const start of starts) {
      expect(new Date(start).getUTCDay()).toBe(1);
      expect((start - dtstart) % (90 * 60_000)).toBe(0);
      expect(start).toBeGreaterThanOrEqual(Date.parse(NOW));
    }
  });

  it('an hourly series with a COUNT lists the occurrences it has left', async () => {
    const { calendar } = await link('/hourly-count.ics');
    expect(calendar).toMatchObject({ state: 'ok', cut: null, counts: { listed: 6 } });
    const mine = await allEvents<{ start: string; externalId: string }>(`${svc.base}/api/events?mine=1&limit=100`, {
      key,
    });
    const starts = mine.filter((e) => e.externalId.startsWith(`${calendar!.id}|`)).map((e) => Date.parse(e.start));
    // 69,264 hours from DTSTART to now: the 69,265th to 69,270th occurrences are now and the five hours after.
    expect(starts.sort((a, b) => a - b)).toEqual(Array.from({ length: 6 }, (_, i) => Date.parse(NOW) + i * HOUR));
  });

  it('a rule that runs out of steps before now is cut, saying so', async () => {
    const { res, calendar } = await link('/filtered-count.ics');
    expect([201, 202]).toContain(res.status);
    expect(calendar).toMatchObject({
      state: 'ok',
      cut: expect.stringMatching(/a recurrence rule takes more than 50000 steps to walk/),
    });
  }, 60_000);

  it('refuses an event ical.js cannot read with words, never a TypeError', async () => {
    for (const [path, words] of [
      ['/no-freq.ics', /an RRULE names no FREQ/],
      ['/nested.ics', /this VEVENT is not well-formed iCalendar \(a component nested where RFC 5545 allows none/],
    ] as const) {
      const { res, calendar } = await link(path);
      const message = res.status === 422 ? (res.body.errors[0].message as string) : calendar?.lastError;
      expect(message, path).toMatch(/^is not an iCal feed: not an iCalendar feed: not one event could be read/);
      expect(message, path).toMatch(words);
      expect(message, path).not.toMatch(INTERNALS);
    }
  });

  it('refuses a redirect to what is not a URL with words', async () => {
    const { res, calendar } = await link('/bad-redirect.ics');
    const message = res.status === 422 ? (res.body.errors[0].message as string) : calendar?.lastError;
    expect(message).toMatch(/^could not be read: GET .*: redirected to "http:\/\/\[::1", which is not a URL$/);
  });

  it('the operator sees the cut in the sync’s run, on /api/sources and in the calendars check', async () => {
    const { run } = await adminSync(svc.base, ADMIN);
    expect(run.body.state).toBe('done');
    const feed = run.body.feeds.find((f: { source: string }) => f.source === 'office-hours');
    expect(feed).toMatchObject({ created: 200, cut: expect.stringMatching(/more than 200 times/) });
    const sources = await request(`${svc.base}/api/sources`);
    const source = sources.body.sources.find((s: { source: string }) => s.source === 'office-hours');
    expect(source.lastRun).toMatchObject({ cut: expect.stringMatching(/more than 200 times/) });
    const check = await request(`${svc.base}/api/admin/calendars/check`, { key: ADMIN });
    expect(check.body.calendars).toEqual([
      expect.objectContaining({ state: 'ok', events: 200, cut: expect.stringMatching(/more than 200 times/) }),
    ]);
    const md = await fetch(`${svc.base}/api/admin/calendars/check`, {
      headers: { authorization: `Bearer ${ADMIN}`, accept: 'text/markdown' },
    });
    expect(await md.text()).toMatch(/\| ok, cut to its first 200 events: a recurring series repeats more than 200/);
  });
});
