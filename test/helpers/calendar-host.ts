import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type DemoMeetupEvent, meetupCalendar } from '../../src/demo/calendars.js';

/**
 * Calendars of many groups for the feeds-file sync tests: Meetup-shaped exports of 22 groups over eleven cities, a
 * captured Google community calendar and a Luma calendar, served by a stand-in host that can fail on demand.
 */
const FIXTURES = new URL('../fixtures/calendars/', import.meta.url);

/** Where the groups meet: a venue and address their exports give, and the point. */
export const CITIES = {
  Zürich: { country: 'ch', address: 'Sihlquai 131, 8005 Zürich', venue: 'Impact Hub', lat: 47.3813, lng: 8.5357 },
  Basel: { country: 'ch', address: 'Dornacherstrasse 192, 4053 Basel', venue: 'Markthalle', lat: 47.543, lng: 7.595 },
  Bern: { country: 'ch', address: 'Bollwerk 35, 3011 Bern', venue: 'Effinger', lat: 46.9491, lng: 7.4386 },
  Lausanne: {
    country: 'ch',
    address: 'Rue de Genève 77, 1004 Lausanne',
    venue: 'Impact Hub',
    lat: 46.5238,
    lng: 6.6222,
  },
  Berlin: {
    country: 'de',
    address: 'Rheinsberger Str. 76, 10115 Berlin',
    venue: 'Factory',
    lat: 52.5373,
    lng: 13.3946,
  },
  München: { country: 'de', address: 'Lilienthalallee 29, 80939 München', venue: 'Werk1', lat: 48.1999, lng: 11.6218 },
  Hamburg: { country: 'de', address: 'Am Sandtorkai 27, 20457 Hamburg', venue: 'betahaus', lat: 53.5434, lng: 9.9891 },
  Köln: { country: 'de', address: 'Im Mediapark 8, 50670 Köln', venue: 'Startplatz', lat: 50.9486, lng: 6.9441 },
  Wien: { country: 'at', address: 'Siebenbrunnengasse 44, 1050 Wien', venue: 'Sektor5', lat: 48.1844, lng: 16.3553 },
  Graz: { country: 'at', address: 'Marienplatz 1, 8020 Graz', venue: 'Spacelend', lat: 47.0767, lng: 15.4215 },
  Linz: {
    country: 'at',
    address: 'Peter-Behrens-Platz 10, 4020 Linz',
    venue: 'Tabakfabrik',
    lat: 48.3019,
    lng: 14.2963,
  },
} as const;
type City = keyof typeof CITIES;

const TOPICS = ['Rust', 'AI', 'Kubernetes', 'JavaScript', 'Python', 'Security', 'Data', 'Go'] as const;
export const TOPIC_SLUGS: Record<(typeof TOPICS)[number], string> = {
  Rust: 'programming-languages',
  AI: 'ai-ml',
  Kubernetes: 'cloud-devops',
  JavaScript: 'web',
  Python: 'programming-languages',
  Security: 'security',
  Data: 'data',
  Go: 'programming-languages',
};

export interface Group {
  id: string;
  name: string;
  city: City;
  topic: (typeof TOPICS)[number];
  events: DemoMeetupEvent[];
}

/** 22 groups over eleven cities, three events each: one over already, two to come. */
export function makeGroups(): Group[] {
  const cities = Object.keys(CITIES) as City[];
  return Array.from({ length: 22 }, (_, i) => {
    const city = cities[i % cities.length]!;
    const topic = TOPICS[i % TOPICS.length]!;
    const id = `${topic.toLowerCase()}-${city.toLowerCase().replace('ü', 'ue').replace('ö', 'oe')}-${i}`;
    const place = CITIES[city];
    const day = (d: number) => `2026-${d > 30 ? '12' : '11'}-${String(d > 30 ? d - 30 : d).padStart(2, '0')}`;
    const event = (n: number, start: string, title: string): DemoMeetupEvent => ({
      id: `${300000000 + i * 10 + n}`,
      title,
      start,
      venue: place.venue,
      address: place.address,
      lat: place.lat,
      lng: place.lng,
      description:
        n === 2 ? `${'An evening of talks on what we build and how. '.repeat(40)}The end of a long text.` : undefined,
    });
    return {
      id,
      name: `${topic} ${city}`,
      city,
      topic,
      events: [
        event(0, `${day(10 + (i % 5))}T18:30`, `${topic} ${city} Meetup #${i}`),
        event(1, `${day(30 + (i % 9) + 1)}T18:30`, `${topic} Night ${city}`),
        event(2, `2027-01-${String(10 + (i % 15)).padStart(2, '0')}T19:00`, `${topic} ${city} in January`),
      ],
    };
  });
}

type Mode = 'ok' | '500' | '404' | '429-once' | 'html' | 'empty';

/** The groups as a feeds file's `each.group` list names them: the calendar's id, name, city, country and topic. */
export function feedGroups(groups: Group[], extra: Record<string, string> = {}) {
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    city: g.city,
    country: CITIES[g.city].country,
    topics: [TOPIC_SLUGS[g.topic]],
    ...extra,
  }));
}

/** A stand-in for meetup.com, a Google calendar and a Luma calendar: ETags, 304s, failures on demand. */
export function calendarHost(groups: Group[]) {
  const modes = new Map<string, Mode>();
  const bodies = new Map<string, string>();
  const requests: { path: string; at: number; headers: IncomingMessage['headers']; status: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const render = (g: Group) => meetupCalendar({ id: g.id, name: g.name }, g.events, { shape: 'legacy' });
  for (const g of groups) bodies.set(`/meetup/${g.id}/events/ical/`, render(g));
  bodies.set('/google/rust.ics', readFileSync(new URL('google-community.ics', FIXTURES), 'utf8'));
  bodies.set('/luma/ai-founders.ics', readFileSync(new URL('luma-calendar.ics', FIXTURES), 'utf8'));
  const server: Server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const path = req.url ?? '/';
    const group = path.match(/^\/meetup\/([^/]+)\//)?.[1];
    const mode = (group && modes.get(group)) ?? 'ok';
    const reply = (status: number, headers: Record<string, string> = {}, body = '') => {
      // A little latency, so that concurrent reads overlap as they would over the network.
      setTimeout(() => {
        requests.push({ path, at: Date.now(), headers: req.headers, status });
        inFlight--;
        res.writeHead(status, headers).end(body);
      }, 15);
    };
    if (mode === '500') return reply(500, {}, 'upstream error');
    if (mode === '404') return reply(404, {}, 'Not found');
    if (mode === '429-once') {
      modes.set(group!, 'ok');
      return reply(429, { 'retry-after': '1' }, 'slow down');
    }
    if (mode === 'html') return reply(200, { 'content-type': 'text/html' }, '<html><body>Log in</body></html>');
    const body =
      mode === 'empty'
        ? 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Meetup//RemoteApi//EN\r\nEND:VCALENDAR\r\n'
        : bodies.get(path);
    if (body === undefined) return reply(404, {}, 'Not found');
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    if (req.headers['if-none-match'] === etag) return reply(304, { etag });
    reply(200, { 'content-type': 'text/calendar; charset=utf-8', etag }, body);
  });
  return {
    server,
    requests,
    maxInFlight: () => maxInFlight,
    setMode: (group: string, mode: Mode) => modes.set(group, mode),
    republish(g: Group) {
      bodies.set(`/meetup/${g.id}/events/ical/`, render(g));
    },
  };
}
