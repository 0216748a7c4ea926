/**
 * The bench's mixed cases: reads while the catalogue is written, as a live catalogue is — hosts pushing events at a
 * steady rate, a feed syncing thousands at once — and how soon a write shows in `/api/events`.
 */
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { DateTime } from 'luxon';
import type { EventContent } from '../src/catalogue/event.js';
import { MEETUP_HEADERS, meetupCalendar } from '../src/demo/calendars.js';
import { generateDemoEvents } from '../src/demo/generate.js';
import { COUNTRY_INFO } from '../src/places/countries.js';
import { percentile } from './percentile.js';

/**
 * The latencies of `POST /api/events` as the service measured them (its access log: from the request read to the
 * response sent) between two instants. On this 2-core machine the load generator saturates a core and starves the
 * writer's thread now and then, so the client-side figures carry the client's scheduling delays too.
 */
export async function serviceWriteLatencies(logFile: string, fromMs: number, toMs: number): Promise<Latencies> {
  const values: number[] = [];
  let failed = 0;
  // Read line by line: at 1k events every read case logs some 30,000 requests a second, and the log of a run with
  // three rounds outgrows the longest string V8 makes (512 MB).
  for await (const line of createInterface({ input: createReadStream(logFile), crlfDelay: Number.POSITIVE_INFINITY })) {
    if (!line.includes('"POST"') || !line.includes('"path":"/api/events"')) continue;
    const entry = JSON.parse(line) as { time: number; status: number; ms: number };
    if (entry.time < fromMs || entry.time > toMs) continue;
    if (entry.status < 300) values.push(entry.ms);
    else failed++;
  }
  return summarise(values, failed);
}

/** A demo event as the write API takes it (spec §2.3 plus the documented extensions). */
export function submissionOf(content: EventContent, externalId: string, title = content.title): object {
  const zone = COUNTRY_INFO[content.country].timeZone;
  const iso = (d: Date) => DateTime.fromJSDate(d, { zone }).toISO({ suppressMilliseconds: true })!;
  return {
    externalId,
    title,
    startAt: iso(content.start),
    ...(content.end ? { endAt: iso(content.end) } : {}),
    country: content.country,
    ...(content.city ? { city: content.city, venue: content.venue ?? undefined } : {}),
    format: content.format,
    topics: content.topics,
    price: content.priceType,
    ...(content.priceAmount ? { priceAmount: Number(content.priceAmount) } : {}),
    description: content.description ?? undefined,
    organizer: content.organizer,
    url: content.url ?? undefined,
  };
}

/** A feed of `count` demo events as JSON lines (the `jsonl` import format): what a sync brings in at once. */
export function feedLines(count: number, from: Date): string {
  return generateDemoEvents(count, from, { seed: 77, days: 90 })
    .map((d, i) => JSON.stringify(submissionOf(d.content, `feed-${i}`)))
    .join('\n');
}

export interface Latencies {
  count: number;
  failed: number;
  p50: number;
  p99: number;
}

function summarise(values: number[], failed: number): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { count: values.length, failed, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) };
}

async function post(url: string, key: string, body: object): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export interface WriterOptions {
  base: string;
  key: string;
  perSecond: number;
  /** ISO instant: the demo events start after it. */
  from: string;
}

/**
 * Writes through POST /api/events at `perSecond` on a timer, whatever the answers take (hosts do not wait for each
 * other): creates and updates of demo events in every country, three updates for each create. Runs on a worker
 * thread (writer-thread.ts), so its timings are a client's, not those of the bench's busy load generator. `stop`
 * ends it and gives the write latencies.
 */
export async function startWriter(options: WriterOptions): Promise<{ stop(): Promise<Latencies> }> {
  // The thread loads TypeScript as the bench does, through tsx (a worker does not inherit the loader).
  const entry = JSON.stringify(new URL('./writer-thread.ts', import.meta.url).href);
  const worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); });`, {
    eval: true,
    workerData: options,
  });
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop: () =>
      new Promise<Latencies>((resolve, reject) => {
        worker.once('message', (latencies: Latencies) => {
          void worker.terminate();
          resolve(latencies);
        });
        worker.once('error', reject);
        worker.postMessage('stop');
      }),
  };
}

/** The writer itself (see startWriter), on the thread that calls it. */
export function runWriter({ base, key, perSecond, from }: WriterOptions): { stop(): Promise<Latencies> } {
  const pool = generateDemoEvents(2000, new Date(from), { seed: 5, days: 60 });
  const latencies: number[] = [];
  let failed = 0;
  let n = 0;
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const i = n++;
    // Every fourth write creates an event; the others update one of the first 200 (a title edit, a new time).
    const created = i % 4 === 0;
    const slot = created ? 200 + i : (i * 7) % 200;
    const demo = pool[slot % pool.length]!;
    const body = submissionOf(
      demo.content,
      `writer-${slot}`,
      created ? demo.content.title : `${demo.content.title} (${i})`,
    );
    const started = performance.now();
    const write = post(`${base}/api/events`, key, body)
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.ok) latencies.push(performance.now() - started);
        else failed++;
      })
      .catch(() => {
        failed++;
      })
      .finally(() => inFlight.delete(write));
    inFlight.add(write);
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return summarise(latencies, failed);
    },
  };
}

/**
 * How long after a write is acknowledged it shows in `/api/events` on each node: `samples` probe events, each with a
 * word of its own in the title, written one after the other; each node is asked for that word every 2 ms until the
 * event is in the answer (through every cache, as a client asks). Gives up on one after 5 s (counted as failed).
 */
export async function visibilityLag(
  writeBase: string,
  readBases: string[],
  key: string,
  samples: number,
): Promise<Latencies[]> {
  const lags: number[][] = readBases.map(() => []);
  const failed = readBases.map(() => 0);
  const start = DateTime.fromISO('2026-02-10T18:00:00', { zone: 'Europe/Berlin' });
  for (let i = 0; i < samples; i++) {
    const word = `probe${i}x${Math.random().toString(36).slice(2, 8)}`;
    const res = await post(`${writeBase}/api/events`, key, {
      externalId: `probe-${word}`,
      title: `Bench ${word}`,
      startAt: start.plus({ days: i % 20 }).toISO({ suppressMilliseconds: true }),
      city: 'Berlin',
      country: 'de',
    });
    await res.arrayBuffer();
    const acknowledged = performance.now();
    await Promise.all(
      readBases.map(async (base, node) => {
        const url = `${base}/api/events?country=de&q=${word}&limit=5`;
        for (;;) {
          const body = await (await fetch(url)).text();
          if (body.includes(`probe-${word}`) || body.includes(`Bench ${word}`)) {
            lags[node]!.push(performance.now() - acknowledged);
            return;
          }
          if (performance.now() - acknowledged > 5_000) {
            failed[node]!++;
            return;
          }
          await new Promise((r) => setTimeout(r, 2));
        }
      }),
    );
  }
  return lags.map((values, node) => summarise(values, failed[node]!));
}

/**
 * A stand-in for meetup.com on loopback: `groups` calendars of `events` demo meetups each, shaped and served as
 * Meetup's export is in 2026 (no place in the events, no validators). What a sync of many calendars reads, without
 * the network.
 */
export async function startCalendarHost(
  groups: number,
  events: number,
  from: Date,
): Promise<{ template: string; ids: string[]; stop(): Promise<void> }> {
  const ids = Array.from({ length: groups }, (_, g) => `bench-group-${g}`);
  const bodies = new Map(
    ids.map((id, g) => {
      const list = Array.from({ length: events }, (_, e) => {
        const start = DateTime.fromJSDate(from, { zone: 'Europe/Berlin' })
          .plus({ days: 3 + g + e * 7 })
          .set({ hour: 18, minute: 30 });
        return {
          id: `${g * 100 + e}`,
          title: `${['AI', 'Kubernetes', 'Rust', 'Data', 'Security'][g % 5]} Meetup Berlin #${g}-${e}`,
          start: start.toFormat("yyyy-MM-dd'T'HH:mm"),
        };
      });
      return [`/g/${id}/events/ical/`, meetupCalendar({ id, name: `Bench Group ${g}`, zone: 'Europe/Berlin' }, list)];
    }),
  );
  const server = createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, MEETUP_HEADERS).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    template: `http://127.0.0.1:${port}/g/{group}/events/ical/`,
    ids,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
