import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarHost, feedGroups, type Group, makeGroups, TOPIC_SLUGS } from './helpers/calendar-host.js';
import { ENGINES } from './helpers/engines.js';
import { adminSync } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** Thursday 26 November 2026, 11:00 in Zürich. */
const NOW = '2026-11-26T10:00:00Z';
const ADMIN = 'calendar-feeds-admin-token';

interface EventJson {
  id: string;
  title: string;
  start: string;
  city?: string;
  sourceUrl: string;
  url: string;
  topics: string[];
  organizer: string;
  source: string;
}

describe.each(ENGINES)('a feeds file of calendars, synced on %s', (engine) => {
  const groups = makeGroups();
  const host = calendarHost(groups);
  const [flaky, moved, busy, changing, quiet, broken] = [
    groups[0]!,
    groups[1]!,
    groups[2]!,
    groups[3]!,
    groups[4]!,
    groups[5]!,
  ];
  let base: string;
  let svc: TestServer;
  let feedsFile: string;

  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${svc.base}${path}`);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const sync = async () => {
    const { run } = await adminSync(svc.base, ADMIN);
    expect(run.body.state).toBe('done');
    return run.body as { feeds: { source: string; error?: string; failingCalendars?: unknown[] }[] };
  };
  /** Every upcoming event in the three countries, by the Meetup link it came from. */
  const listed = async () => {
    const all: EventJson[] = [];
    for (const country of ['ch', 'de', 'at'])
      all.push(...(await get<{ events: EventJson[] }>(`/api/events?country=${country}&limit=100`)).events);
    return new Map(all.map((e) => [e.sourceUrl, e]));
  };
  const calendars = async () => {
    const { sources } = await get<{
      sources: {
        source: string;
        calendars?: {
          id: string;
          state: string;
          lastError: string | null;
          lastChanged: string | null;
          lastSuccess: string | null;
          counts: { listed: number };
        }[];
        lastRun: Record<string, number> | null;
      }[];
    }>('/api/sources');
    return sources;
  };
  const meetupLink = (g: Group, n: number) => `https://www.meetup.com/${g.id}/events/${g.events[n]!.id}/`;

  beforeAll(async () => {
    await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}`;
    feedsFile = join(tmpdir(), `tev-calendar-feeds-${engine}-${process.pid}.json`);
    writeFileSync(
      feedsFile,
      JSON.stringify([
        {
          source: 'meetup',
          format: 'ical',
          licence: 'Meetup terms of service',
          url: `${base}/meetup/{group}/events/ical/`,
          each: {
            group: feedGroups(groups, { found: 'https://example.org/where-it-was-found' }),
          },
        },
        { source: 'rust-community', format: 'ical', url: `${base}/google/rust.ics`, worldwide: true },
        {
          source: 'ai-founders',
          format: 'ical',
          url: `webcal://127.0.0.1:${(host.server.address() as AddressInfo).port}/luma/ai-founders.ics`,
          country: 'ch',
        },
      ]),
    );
    host.setMode(busy.id, '429-once');
    // webcal: means https; the stand-in speaks http, so the Luma feed is read over http:// in this test.
    const feeds = JSON.parse(readFileSync(feedsFile, 'utf8')) as { url: string }[];
    feeds[2]!.url = `${base}/luma/ai-founders.ics`;
    writeFileSync(feedsFile, JSON.stringify(feeds));
    svc = await startTestServer(engine, { now: NOW, env: { FEEDS_FILE: feedsFile, ADMIN_TOKEN: ADMIN } });
  });
  afterAll(async () => {
    await svc?.close();
    await new Promise((resolve) => host.server.close(resolve));
  });

  it('lists every calendar’s upcoming events; a 429 is waited out, then read once more', async () => {
    const report = await sync();
    expect(report.feeds.map((f) => f.source)).toEqual(['meetup', 'rust-community', 'ai-founders']);
    expect(report.feeds.every((f) => f.error === undefined && f.failingCalendars === undefined)).toBe(true);
    const events = await listed();
    for (const g of groups) {
      expect(events.has(meetupLink(g, 0)), `${g.id}: over already`).toBe(false);
      for (const n of [1, 2]) {
        const event = events.get(meetupLink(g, n));
        expect(event, `${g.id} #${n}`).toBeDefined();
        expect(event).toMatchObject({ city: g.city, organizer: g.name, source: 'meetup' });
        expect(event!.topics).toContain(TOPIC_SLUGS[g.topic]);
      }
    }
    // The times are the group's local ones.
    expect(events.get(meetupLink(busy, 1))!.start).toBe(new Date(`${busy.events[1]!.start}:00+01:00`).toISOString());

    const asked = host.requests.filter((r) => r.path === `/meetup/${busy.id}/events/ical/`);
    expect(asked.map((r) => r.status)).toEqual([429, 200]);
    expect(asked[1]!.at - asked[0]!.at).toBeGreaterThanOrEqual(1000);
    // Politely: the service names itself and its address, and asks one host at most four things at once.
    expect(host.requests.every((r) => r.headers['user-agent']?.includes(svc.base))).toBe(true);
    expect(host.maxInFlight()).toBeLessThanOrEqual(4);
    expect(host.maxInFlight()).toBeGreaterThan(1);

    const sources = await calendars();
    const meetup = sources.find((s) => s.source === 'meetup')!;
    expect(meetup.calendars).toHaveLength(22);
    expect(meetup.calendars!.every((c) => c.state === 'ok' && c.counts.listed === 2)).toBe(true);
  });

  it('keeps what a listing needs: a short description, the original link', async () => {
    const event = (await listed()).get(meetupLink(groups[6]!, 2))!;
    const page = await (await fetch(event.url)).text();
    expect(page).toContain('An evening of talks on what we build and how.');
    expect(page).not.toContain('The end of a long text.');
    expect(page).toContain(meetupLink(groups[6]!, 2));
  });

  it('reads a world-wide community calendar: recurrences, exceptions, moves, all-day and UTC times, nothing abroad', async () => {
    const karlsruhe = (await get<{ events: EventJson[] }>('/api/events?country=de&q=Rust+Karlsruhe&limit=50')).events
      .filter((e) => e.source === 'rust-community')
      .map((e) => `${e.title} ${e.start}`)
      .sort();
    // Thursdays at 19:00 in Karlsruhe from today, the 3 December one moved to Friday 18:00, Christmas Eve left out.
    expect(karlsruhe).toEqual(
      [
        'Rust Hack & Learn Karlsruhe 2026-11-26T18:00:00.000Z',
        'Rust Hack & Learn Karlsruhe (Friday edition) 2026-12-04T17:00:00.000Z',
        'Rust Hack & Learn Karlsruhe 2026-12-10T18:00:00.000Z',
        'Rust Hack & Learn Karlsruhe 2026-12-17T18:00:00.000Z',
        'Rust Hack & Learn Karlsruhe 2026-12-31T18:00:00.000Z',
      ].sort(),
    );
    const alps = (await get<{ events: (EventJson & { allDay: boolean })[] }>('/api/events?country=ch&q=Rust+Alps+Days'))
      .events[0]!;
    expect(alps).toMatchObject({ title: 'Rust Alps Days', allDay: true, city: 'Zürich' });
    const vienna = (await get<{ events: EventJson[] }>('/api/events?country=at&q=Rust+Vienna+December')).events[0]!;
    expect(vienna).toMatchObject({
      title: 'Rust Vienna December Meetup',
      start: '2026-12-09T17:00:00.000Z',
      city: 'Wien',
    });
    const all = [...(await listed()).values()].map((e) => e.title);
    for (const abroad of ['Rust NYC Meetup', 'Rust Paris Meetup', 'Rust Online Meetup'])
      expect(all).not.toContain(abroad);
    const community = (await calendars()).find((s) => s.source === 'rust-community')!;
    expect(community.lastRun).toMatchObject({ elsewhere: 3, skipped: 0 });
  });

  it('reads a Luma calendar: UTC times, the link from the description', async () => {
    const breakfast = (await get<{ events: EventJson[] }>('/api/events?country=ch&q=AI+Founders+Breakfast')).events[0]!;
    expect(breakfast).toMatchObject({
      title: 'AI Founders Breakfast',
      start: '2026-12-03T06:30:00.000Z',
      city: 'Zürich',
      sourceUrl: 'https://lu.ma/ai-founders-dec',
    });
  });

  it('a failing, a moved-away and a broken calendar keep their events; the others update, unchanged ones cost a 304', async () => {
    const before = new Map((await calendars()).find((s) => s.source === 'meetup')!.calendars!.map((c) => [c.id, c]));
    const events = await listed();
    const movedEvent = events.get(meetupLink(changing, 1))!;
    const droppedLink = meetupLink(changing, 2);
    const droppedEvent = events.get(droppedLink)!;
    host.setMode(flaky.id, '500');
    host.setMode(moved.id, '404');
    host.setMode(broken.id, 'html');
    host.setMode(quiet.id, 'empty');
    changing.events[1] = { ...changing.events[1]!, start: '2026-12-08T19:15' };
    changing.events.pop();
    host.republish(changing);
    const from = host.requests.length;

    const report = await sync();
    const meetupReport = report.feeds.find((f) => f.source === 'meetup')!;
    expect(meetupReport.failingCalendars).toEqual([
      { calendar: flaky.id, error: expect.stringMatching(/HTTP 500/) },
      { calendar: moved.id, error: expect.stringMatching(/HTTP 404/) },
      { calendar: broken.id, error: expect.stringMatching(/not an iCalendar feed/) },
    ]);

    const after = await listed();
    for (const g of [flaky, moved, broken, quiet])
      for (const n of [1, 2]) expect(after.has(meetupLink(g, n)), `${g.id} keeps #${n}`).toBe(true);
    // A changed time updates the same event; an event gone from its calendar is retired, its page still answers.
    expect(after.get(meetupLink(changing, 1))).toMatchObject({
      id: movedEvent.id,
      start: new Date('2026-12-08T19:15:00+01:00').toISOString(),
    });
    expect(after.has(droppedLink)).toBe(false);
    const page = await fetch(droppedEvent.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/cancelled/i);

    // Every calendar was asked conditionally; the unchanged ones answered 304 and changed nothing.
    const second = host.requests.slice(from).filter((r) => r.path.startsWith('/meetup/'));
    const special = new Set([flaky.id, moved.id, broken.id, quiet.id, changing.id]);
    for (const g of groups.filter((x) => !special.has(x.id))) {
      const asked = second.filter((r) => r.path === `/meetup/${g.id}/events/ical/`);
      expect(asked, g.id).toHaveLength(1);
      expect(asked[0]!.headers['if-none-match'], g.id).toMatch(/^"[0-9a-f]{40}"$/);
      expect(asked[0]!.status, g.id).toBe(304);
    }
    const states = new Map((await calendars()).find((s) => s.source === 'meetup')!.calendars!.map((c) => [c.id, c]));
    for (const g of groups.filter((x) => !special.has(x.id))) {
      expect(states.get(g.id)!.lastChanged, g.id).toBe(before.get(g.id)!.lastChanged);
      expect(states.get(g.id)!.state).toBe('ok');
    }
    expect(states.get(flaky.id)).toMatchObject({ state: 'failing', lastError: expect.stringMatching(/HTTP 500/) });
    expect(states.get(moved.id)).toMatchObject({ state: 'gone', counts: { listed: 2 } });
    expect(states.get(broken.id)).toMatchObject({ state: 'failing' });
    expect(states.get(changing.id)).toMatchObject({ state: 'ok', counts: { listed: 1 } });
  });

  it('an empty calendar retires its events only when it is still empty at the next read', async () => {
    expect((await listed()).has(meetupLink(quiet, 1))).toBe(true);
    await sync();
    const after = await listed();
    expect(after.has(meetupLink(quiet, 1))).toBe(false);
    expect(after.has(meetupLink(quiet, 2))).toBe(false);
    // The failing ones still keep theirs.
    expect(after.has(meetupLink(flaky, 1))).toBe(true);
  });

  it('a calendar taken out of the feeds file takes its upcoming events with it; the others keep theirs', async () => {
    const kept = groups.filter((g) => g !== busy);
    expect((await listed()).has(meetupLink(busy, 1))).toBe(true);
    const feeds = JSON.parse(readFileSync(feedsFile, 'utf8')) as { each?: { group: { id: string }[] } }[];
    feeds[0]!.each!.group = feeds[0]!.each!.group.filter((g) => g.id !== busy.id);
    writeFileSync(feedsFile, JSON.stringify(feeds));
    const report = await sync();
    expect(report.feeds[0]!.error).toBeUndefined();
    const after = await listed();
    for (const n of [1, 2]) expect(after.has(meetupLink(busy, n)), `${busy.id} #${n}`).toBe(false);
    for (const g of kept.filter((x) => x !== quiet && x !== changing))
      expect(after.has(meetupLink(g, 2)), `${g.id} keeps #2`).toBe(true);
  });
});
