import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoMeetupEvent, MEETUP_HEADERS, meetupCalendar } from '../src/demo/calendars.js';
import { ENGINES } from './helpers/engines.js';
import { adminSync, request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Meetup groups' calendars as Meetup serves them in 2026 (test/fixtures/calendars/meetup-2026/README.md): no place
 * in the events, no validators, at most the next 10 events. Each group's city and country come from the feeds file,
 * as the shipped feeds.json gives them. The same tests run over the older export (LOCATION, GEO, ETag), which other
 * producers still write.
 */

/** Thursday 26 November 2026, 11:00 in Zürich. */
const NOW = '2026-11-26T10:00:00Z';
const ADMIN = 'meetup-calendars-admin';
/** What Meetup's export holds at most (see docs/sources.md, "Meetup groups"). */
const WINDOW = 10;

const CITIES = {
  Zürich: { country: 'ch', venue: 'Impact Hub', address: 'Sihlquai 131, 8005 Zürich', lat: 47.3813, lng: 8.5357 },
  Basel: { country: 'ch', venue: 'Markthalle', address: 'Dornacherstrasse 192, 4053 Basel', lat: 47.543, lng: 7.595 },
  Bern: { country: 'ch', venue: 'Effinger', address: 'Bollwerk 35, 3011 Bern', lat: 46.9491, lng: 7.4386 },
  Lausanne: { country: 'ch', venue: 'Impact Hub', address: 'Rue de Genève 77, 1004 Lausanne', lat: 46.52, lng: 6.62 },
  Berlin: { country: 'de', venue: 'Factory', address: 'Rheinsberger Str. 76, 10115 Berlin', lat: 52.537, lng: 13.39 },
  München: { country: 'de', venue: 'Werk1', address: 'Lilienthalallee 29, 80939 München', lat: 48.2, lng: 11.62 },
  Hamburg: { country: 'de', venue: 'betahaus', address: 'Am Sandtorkai 27, 20457 Hamburg', lat: 53.54, lng: 9.99 },
  Köln: { country: 'de', venue: 'Startplatz', address: 'Im Mediapark 8, 50670 Köln', lat: 50.9486, lng: 6.9441 },
  Wien: { country: 'at', venue: 'Sektor5', address: 'Siebenbrunnengasse 44, 1050 Wien', lat: 48.1844, lng: 16.3553 },
  Graz: { country: 'at', venue: 'Spacelend', address: 'Marienplatz 1, 8020 Graz', lat: 47.0767, lng: 15.4215 },
  Linz: { country: 'at', venue: 'Tabakfabrik', address: 'Peter-Behrens-Platz 10, 4020 Linz', lat: 48.3, lng: 14.3 },
} as const;
type City = keyof typeof CITIES;
const TOPICS = ['AI', 'Rust', 'Kubernetes', 'Python', 'Data', 'Security'] as const;
const TOPIC_SLUGS = {
  AI: 'ai-ml',
  Rust: 'programming-languages',
  Kubernetes: 'cloud-devops',
  Python: 'programming-languages',
  Data: 'data',
  Security: 'security',
} as const;

type Shape = '2026' | 'legacy';
interface Group {
  id: string;
  name: string;
  city: City;
  topic: (typeof TOPICS)[number];
  events: DemoMeetupEvent[];
}

const day = (offset: number, time = '18:30') => {
  const d = new Date(Date.UTC(2026, 10, 26 + offset));
  return `${d.toISOString().slice(0, 10)}T${time}`;
};

/** 22 groups over eleven cities: two upcoming meetups each; one group shows a full window of weekly meetups. */
function makeGroups(shape: Shape): Group[] {
  const cities = Object.keys(CITIES) as City[];
  const groups = Array.from({ length: 22 }, (_, i): Group => {
    const city = cities[i % cities.length]!;
    const topic = TOPICS[i % TOPICS.length]!;
    const place = CITIES[city];
    const where =
      shape === 'legacy' ? { venue: place.venue, address: place.address, lat: place.lat, lng: place.lng } : {};
    return {
      id: `${topic.toLowerCase()}-${i}`,
      name: `${topic} ${city}`,
      city,
      topic,
      events: [0, 1].map((n) => ({
        id: `${400000000 + i * 100 + n}`,
        title: `${topic} ${city} ${n === 0 ? 'Meetup' : 'Night'} #${i}`,
        start: day(3 + ((i + n * 7) % 20)),
        ...where,
        description: `**${topic} talks** and drinks.\n\nRSVP on Meetup.`,
      })),
    };
  });
  // A second AI group in Zürich whose description names its venue: a venue only where the event names one.
  groups.push({
    id: 'zurich-ai-builders',
    name: 'Zurich AI Builders',
    city: 'Zürich',
    topic: 'AI',
    events: [
      {
        id: '410000001',
        title: 'AI Builders: agents in production',
        start: day(5, '18:00'),
        description: 'Talks on LLM agents.\n\n📍 Ort: Kraftwerk, Selnaustrasse 25, 8001 Zürich\n\nSee you there!',
      },
    ],
  });
  // One group meets online once: its title says so, and it is listed online, in no city.
  groups[1]!.events.push({
    id: '410000002',
    title: 'Online: Rust Remote Hack Night',
    start: day(9, '19:00'),
    description: 'We hack together on Zoom: https://zoom.us/j/98765',
  });
  // A group with more upcoming meetups than its calendar shows: a weekly series, ten weeks of it in the window.
  groups[4]!.events = Array.from({ length: 12 }, (_, n) => ({
    id: `${420000000 + n}`,
    title: `Data Berlin Weekly #${n + 1}`,
    start: day(1 + n * 7, '19:00'),
    ...(shape === 'legacy' ? { venue: 'Factory', address: CITIES.Berlin.address } : {}),
  }));
  return groups;
}

/** A stand-in for meetup.com: the next WINDOW events of each group, served as the shape's exporter serves them. */
function meetupHost(groups: Group[], shape: Shape) {
  const requests: { path: string; ifNoneMatch: string | undefined; status: number }[] = [];
  let stamp = 0;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const group = groups.find((g) => path === `/${g.id}/events/ical/`);
    if (!group) {
      requests.push({ path, ifNoneMatch: undefined, status: 404 });
      return res.writeHead(404).end('Not found');
    }
    const upcoming = group.events
      .filter((e) => e.start >= NOW.slice(0, 16))
      .sort((a, b) => a.start.localeCompare(b.start))
      .slice(0, WINDOW);
    // Every answer is stamped with the time of the request, as Meetup's is.
    const dtstamp = `20261126T10${String(stamp++ % 60).padStart(2, '0')}00Z`;
    const body = meetupCalendar({ id: group.id, name: group.name }, upcoming, { shape, stamp: dtstamp });
    const ifNoneMatch = req.headers['if-none-match'];
    if (shape === '2026') {
      requests.push({ path, ifNoneMatch, status: 200 });
      return res.writeHead(200, MEETUP_HEADERS).end(body);
    }
    const etag = `"${createHash('sha1')
      .update(body.replace(/^DTSTAMP.*$/gm, ''))
      .digest('hex')}"`;
    const status = ifNoneMatch === etag ? 304 : 200;
    requests.push({ path, ifNoneMatch, status });
    res.writeHead(status, { 'content-type': 'text/calendar; charset=utf-8', etag }).end(status === 304 ? '' : body);
  });
  return { server, requests };
}

interface EventJson {
  id: string;
  title: string;
  city?: string;
  venue?: string;
  format: string;
  geo: { precision: string } | null;
  sourceUrl: string;
  url: string;
  topics: string[];
  source: string;
}

const SHAPES: Shape[] = ['2026', 'legacy'];
const CASES = ENGINES.flatMap((engine) => SHAPES.map((shape) => [engine, shape] as const));

describe.each(CASES)('Meetup groups’ calendars on %s, export shape %s', (engine, shape) => {
  const groups = makeGroups(shape);
  const host = meetupHost(groups, shape);
  const weekly = groups[4]!;
  let svc: TestServer;
  let base: string;
  let feedsFile: string;

  const get = async <T>(path: string): Promise<T> => {
    const res = await request<T>(`${svc.base}${path}`);
    expect(res.status, path).toBe(200);
    return res.body;
  };
  const sync = async () => {
    const { run } = await adminSync(svc.base, ADMIN);
    expect(run.body.state).toBe('done');
    return run.body as { feeds: { source: string; error?: string; failingCalendars?: unknown[] }[] };
  };
  /** Every upcoming event of the three countries, by its Meetup link, with the country it is listed in. */
  const listed = async () => {
    const all: (EventJson & { country: string })[] = [];
    for (const country of ['ch', 'de', 'at'])
      for (const e of (await get<{ events: EventJson[] }>(`/api/events?country=${country}&limit=100`)).events)
        all.push({ ...e, country });
    return new Map(all.map((e) => [e.sourceUrl, e]));
  };
  const link = (g: Group, e: DemoMeetupEvent) => `https://www.meetup.com/${g.id}/events/${e.id}/`;
  const meetupCalendars = async () =>
    (
      await get<{ sources: { source: string; calendars?: { id: string; lastChanged: string | null }[] }[] }>(
        '/api/sources',
      )
    ).sources.find((s) => s.source === 'meetup')!.calendars!;

  beforeAll(async () => {
    await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}`;
    feedsFile = join(tmpdir(), `tev-meetup-calendars-${engine}-${shape}-${process.pid}.json`);
    writeFileSync(
      feedsFile,
      JSON.stringify([
        {
          source: 'meetup',
          format: 'ical',
          url: `${base}/{group}/events/ical/`,
          window: WINDOW,
          each: {
            group: groups.map((g) => ({
              id: g.id,
              name: g.name,
              city: g.city,
              country: CITIES[g.city].country,
              topics: [TOPIC_SLUGS[g.topic]],
            })),
          },
        },
      ]),
    );
    svc = await startTestServer(engine, { now: NOW, env: { FEEDS_FILE: feedsFile, ADMIN_TOKEN: ADMIN } });
    await sync();
  });
  afterAll(async () => {
    await svc?.close();
    await new Promise((resolve) => host.server.close(resolve));
  });

  it('lists every in-person meetup in its group’s city and country, the online one online', async () => {
    const events = await listed();
    const online = groups[1]!.events[2]!;
    for (const g of groups)
      for (const e of g.events.slice(0, g === weekly ? WINDOW : undefined)) {
        const event = events.get(link(g, e));
        expect(event, `${g.id}: ${e.title}`).toBeDefined();
        expect(event!.source).toBe('meetup');
        if (e === online) {
          expect(event).toMatchObject({ format: 'online' });
          expect(event!.city).toBeUndefined();
          continue;
        }
        expect(event, e.title).toMatchObject({ format: 'in_person', city: g.city, country: CITIES[g.city].country });
        expect(event!.topics).toContain(TOPIC_SLUGS[g.topic]);
      }
  });

  it('shows a venue only where the event names one, the city’s centre where it does not', async () => {
    const events = await listed();
    const named = events.get(link(groups.at(-1)!, groups.at(-1)!.events[0]!))!;
    expect(named).toMatchObject({ city: 'Zürich', venue: 'Kraftwerk, Selnaustrasse 25, 8001 Zürich' });
    const plain = events.get(link(groups[0]!, groups[0]!.events[0]!))!;
    if (shape === '2026') {
      expect(plain.venue).toBeUndefined();
      expect(plain.geo?.precision).toBe('city');
      const page = await (await fetch(plain.url)).text();
      expect(page).toContain('Zürich');
      expect(page).not.toContain('Impact Hub');
    } else {
      expect(plain).toMatchObject({ venue: 'Impact Hub, Sihlquai 131, 8005 Zürich', geo: { precision: 'exact' } });
    }
  });

  it('finds the city’s meetups for “AI meetups in Zürich”, in English and in German', async () => {
    const zurichAi = groups
      .filter((g) => g.topic === 'AI' && g.city === 'Zürich')
      .flatMap((g) => g.events.map((e) => link(g, e)));
    expect(zurichAi.length).toBeGreaterThanOrEqual(3);
    for (const q of ['AI meetups in Zürich', 'KI-Meetups in Zürich']) {
      const found = (await get<{ events: EventJson[] }>(`/api/events?q=${encodeURIComponent(q)}&limit=50`)).events;
      const urls = found.map((e) => e.sourceUrl);
      for (const url of zurichAi) expect(urls, `${q}: ${url}`).toContain(url);
      expect(found.every((e) => e.city === 'Zürich')).toBe(true);
    }
  });

  it('an unchanged calendar read again writes nothing, with validators or without', async () => {
    const before = new Map((await meetupCalendars()).map((c) => [c.id, c.lastChanged]));
    const from = host.requests.length;
    const report = await sync();
    expect(report.feeds[0]).not.toHaveProperty('error');
    const after = await meetupCalendars();
    for (const c of after) expect(c.lastChanged, c.id).toBe(before.get(c.id));
    const sources = await get<{ sources: { source: string; lastRun: Record<string, number> | null }[] }>(
      '/api/sources',
    );
    expect(sources.sources.find((s) => s.source === 'meetup')!.lastRun).toMatchObject({
      created: 0,
      updated: 0,
      cancelled: 0,
    });
    // Each calendar was read once more (a 304 for the shape that has ETags; content compared for the one without).
    const again = host.requests.slice(from);
    expect(again).toHaveLength(groups.length);
    expect(again.every((r) => r.status === (shape === '2026' ? 200 : 304))).toBe(true);
  });

  it('a group given another city in the feeds file is imported again, though its calendar did not change', async () => {
    const moved = groups[12]!; // a Basel group
    const feeds = JSON.parse(readFileSync(feedsFile, 'utf8')) as { each: { group: { id: string; city: string }[] } }[];
    feeds[0]!.each.group.find((g) => g.id === moved.id)!.city = 'Liestal';
    writeFileSync(feedsFile, JSON.stringify(feeds));
    await sync();
    const event = (await listed()).get(link(moved, moved.events[0]!))!;
    if (shape === '2026') expect(event).toMatchObject({ city: 'Liestal', country: 'ch' });
    // The older export names its place: the event's own LOCATION wins over the feeds file.
    else expect(event).toMatchObject({ city: moved.city });
  });

  it('a full calendar is a window: a new earlier meetup pushes the last one out, which stays listed', async () => {
    const last = weekly.events[WINDOW - 1]!;
    const gone = weekly.events[3]!;
    expect((await listed()).has(link(weekly, last))).toBe(true);
    // The group announces two meetups before the others and drops one inside the window (gone from the feed): the
    // window now ends a week earlier.
    weekly.events.unshift(
      { id: '420000098', title: 'Data Berlin Warm-up', start: day(0, '20:00') },
      { id: '420000099', title: 'Data Berlin Kick-off', start: day(1, '12:00') },
    );
    weekly.events.splice(weekly.events.indexOf(gone), 1);
    await sync();
    const events = await listed();
    expect(events.get(link(weekly, weekly.events[1]!))).toMatchObject({
      title: 'Data Berlin Kick-off',
      city: 'Berlin',
    });
    // Pushed past the 10th place: not shown by the calendar, not gone from it.
    expect(events.has(link(weekly, last)), 'pushed out of the window').toBe(true);
    // Gone from inside the window's span: retired.
    expect(events.has(link(weekly, gone)), 'gone from the window').toBe(false);
  });
});
