import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoMeetupEvent, meetupCalendar } from '../src/demo/calendars.js';
import { CALENDAR_LIMITS } from '../src/importers/calendar-limits.js';
import { adminSync, allEvents, request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2026-11-26T10:00:00Z';
const ADMIN = 'calendar-limits-admin';
/** The whole-read deadline of this suite's service (CALENDAR_READ_TIMEOUT_MS): short, so that hostile reads end soon. */
const DEADLINE_MS = 3_000;

/** The start of the i-th event of calendarOf: spread over ten weeks, written in no particular order. */
const startOf = (i: number) => Date.parse('2026-11-27T08:00:00Z') + ((i * 7919) % 1680) * 3_600_000;

/** A calendar of `count` events from tomorrow on, each `RRULE` when given; lines as any exporter writes them. */
function calendarOf(count: number, rrule?: string): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//hostile//EN', 'X-WR-CALNAME:Events - Hostile'];
  for (let i = 0; i < count; i++) {
    const start = new Date(startOf(i)).toISOString().replace(/[-:]|\.\d+/g, '');
    lines.push(
      'BEGIN:VEVENT',
      `UID:hostile-${i}@example.org`,
      `DTSTAMP:${start}`,
      `DTSTART:${start}`,
      `SUMMARY:Hostile event ${i}`,
      'LOCATION:Impact Hub, Sihlquai 131, 8005 Zürich',
      ...(rrule ? [rrule] : []),
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

const HEALTHY: DemoMeetupEvent[] = [
  { id: '901', title: 'Healthy Night', start: '2026-12-02T18:30', venue: 'Impact Hub', address: '8005 Zürich' },
  { id: '902', title: 'Healthy Breakfast', start: '2026-12-09T08:00', venue: 'Impact Hub', address: '8005 Zürich' },
  { id: '903', title: 'Healthy Party', start: '2026-12-16T19:00', venue: 'Impact Hub', address: '8005 Zürich' },
];

/**
 * A host that misbehaves at the socket: raw HTTP/1.1 written by hand, as no well-behaved server library would send it.
 * Sockets it leaves open are closed when the suite ends.
 */
function hostileHost(): { server: TcpServer; sockets: Set<Socket> } {
  const sockets = new Set<Socket>();
  const big = calendarOf(10_000);
  const hourly3000 = calendarOf(3_000, 'RRULE:FREQ=HOURLY');
  const hourly500 = calendarOf(500, 'RRULE:FREQ=HOURLY');
  const bomb = gzipSync(Buffer.concat([Buffer.from('BEGIN:VCALENDAR\r\n'), Buffer.alloc(40 * 1024 * 1024, 'X')]));
  const head = (status: string, headers: Record<string, string | number>) =>
    `HTTP/1.1 ${status}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', (data) => {
      const path = data.toString('latin1').split(' ')[1] ?? '/';
      const calendar = (text: string | Buffer, extra: Record<string, string | number> = {}) => {
        const body = Buffer.isBuffer(text) ? text : Buffer.from(text);
        const headers = { 'content-type': 'text/calendar', 'content-length': body.length, ...extra };
        socket.end(Buffer.concat([Buffer.from(head('200 OK', headers)), body]));
      };
      if (path === '/big.ics') return calendar(big);
      if (path === '/hourly-3000.ics') return calendar(hourly3000);
      if (path === '/hourly-500.ics') return calendar(hourly500);
      if (path === '/bomb.ics') return calendar(bomb, { 'content-encoding': 'gzip' });
      if (path === '/loop.ics') return socket.end(head('302 Found', { location: '/loop.ics', 'content-length': 0 }));
      if (path === '/short-length.ics') {
        // Declares 10 bytes and sends a whole calendar after them, keeping the connection open.
        socket.write(head('200 OK', { 'content-type': 'text/calendar', 'content-length': 10 }));
        return socket.write(big.slice(0, 200_000));
      }
      if (path === '/long-length.ics') {
        // Declares far more than it sends, and never closes.
        socket.write(head('200 OK', { 'content-type': 'text/calendar', 'content-length': 1_000_000 }));
        return socket.write(big.slice(0, 1_000));
      }
      if (path === '/drip.ics') {
        // A calendar that never ends: a line every tenth of a second.
        socket.write(head('200 OK', { 'content-type': 'text/calendar', 'transfer-encoding': 'chunked' }));
        const line = Buffer.from('X-DRIP:still here\r\n');
        const chunk = Buffer.concat([Buffer.from(`${line.length.toString(16)}\r\n`), line, Buffer.from('\r\n')]);
        socket.write(chunk);
        const timer = setInterval(() => socket.write(chunk), 100);
        return socket.on('close', () => clearInterval(timer));
      }
      socket.end(head('404 Not Found', { 'content-length': 0 }));
    });
  });
  return { server, sockets };
}

/** A host that asked, once, to be left alone for 100,000 seconds. */
function pausedHost(): Server {
  return createHttpServer((_req, res) => res.writeHead(503, { 'retry-after': '100000' }).end('busy'));
}

function healthyHost(): Server {
  return createHttpServer((req, res) => {
    const group = (req.url ?? '/').slice(1, 8);
    res.writeHead(200, { 'content-type': 'text/calendar' }).end(
      meetupCalendar(
        { id: group, name: 'Healthy' },
        HEALTHY.map((e) => ({ ...e, id: `${group}${e.id}` })),
      ),
    );
  });
}

const listen = async (server: Server | TcpServer) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** Times reads of a cached listing and of /healthz back to back while `during` runs: the slowest of each. */
async function readsDuring<T>(base: string, during: () => Promise<T>): Promise<{ result: T; slowestMs: number }> {
  let slowestMs = 0;
  let running = true;
  // Warm: the first read of a path compiles what it runs and opens the connection.
  for (const path of ['/api/events?country=ch&limit=5', '/healthz'])
    await (await fetch(`${base}${path}`)).arrayBuffer();
  const reader = (async () => {
    while (running) {
      for (const path of ['/api/events?country=ch&limit=5', '/healthz']) {
        const started = performance.now();
        const res = await fetch(`${base}${path}`);
        await res.arrayBuffer();
        slowestMs = Math.max(slowestMs, performance.now() - started);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    return { result: await during(), slowestMs };
  } finally {
    running = false;
    await reader;
  }
}

describe('what another server does to a calendar read is bounded', () => {
  const hostile = hostileHost();
  const paused = pausedHost();
  const healthy = healthyHost();
  let svc: TestServer;
  let key: string;
  let bad: string;
  let pausedAt: string;
  let good: string;
  const dir = mkdtempSync(join(tmpdir(), 'tev-calendar-limits-'));

  const call = (method: string, path: string, body?: unknown) =>
    request(`${svc.base}${path}`, { method, key, ...(body !== undefined ? { json: body } : {}) });
  /** Every calendar of the key once none is still on its first read. */
  const settled = async () => {
    for (const until = Date.now() + 60_000; ; ) {
      const calendars = (await call('GET', '/api/calendars')).body.calendars as Record<string, any>[];
      if (calendars.every((c) => c.state !== 'syncing') || Date.now() > until) return calendars;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    [bad, pausedAt, good] = [await listen(hostile.server), await listen(paused), await listen(healthy)];
    // The operator's feeds: the paused host's calendar first, as when one host held up every calendar after it.
    const feedsFile = join(dir, 'feeds.json');
    writeFileSync(
      feedsFile,
      JSON.stringify([
        { source: 'paused-group', format: 'ical', url: `${pausedAt}/feed.ics`, country: 'ch' },
        { source: 'healthy-group', format: 'ical', url: `${good}/feedgroup/`, country: 'ch' },
      ]),
    );
    svc = await startTestServer('pglite', {
      now: NOW,
      env: {
        FEEDS_FILE: feedsFile,
        CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32',
        CALENDARS_PER_KEY: '20',
        CALENDAR_READ_TIMEOUT_MS: String(DEADLINE_MS),
        ADMIN_TOKEN: ADMIN,
      },
    });
    key = await svc.createKey('Hostile Host', 'ch');
  });
  afterAll(async () => {
    await svc?.close();
    for (const socket of hostile.sockets) socket.destroy();
    await Promise.all([hostile.server, paused, healthy].map((s) => new Promise((resolve) => s.close(resolve))));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers each link within 2 s, ends each read within its deadline, says why, and reads stay quick', async () => {
    const hostileUrls = [
      'big.ics',
      'hourly-3000.ics',
      'hourly-500.ics',
      'bomb.ics',
      'loop.ics',
      'short-length.ics',
      'long-length.ics',
      'drip.ics',
    ].map((path) => `${bad}/${path}`);
    const urls = [...hostileUrls, `${pausedAt}/calendar.ics`, `${good}/healthy/`];
    // A first link warms what any first link loads (the gazetteer, the parser), once per process.
    expect([201, 202]).toContain((await call('POST', '/api/calendars', { url: `${good}/warming/` })).status);
    await settled();
    const linkedAt = Date.now();
    const { result, slowestMs } = await readsDuring(svc.base, async () => {
      const links = await Promise.all(
        urls.map(async (url) => {
          const started = performance.now();
          const res = await call('POST', '/api/calendars', { url });
          return { url, res, ms: performance.now() - started };
        }),
      );
      return { links, calendars: await settled(), settledMs: Date.now() - linkedAt };
    });
    const { links, calendars, settledMs } = result;
    for (const { url, res, ms } of links) {
      expect(ms, url).toBeLessThan(2_000);
      expect([201, 202, 422], url).toContain(res.status);
    }
    const answer = (path: string) => links.find((l) => l.url.endsWith(path))!.res;
    const calendar = (path: string) => calendars.find((c) => c.url.endsWith(path));
    const refusal = (path: string) => answer(path).body.errors?.[0]?.message as string;

    // What fails within the link's wait for its first read is refused (422), nothing linked; on a machine too busy
    // to end that read in time, the link answers 202 all the same and the calendar then says why it fails.
    const why = (path: string) =>
      answer(path).status === 422 ? refusal(path) : (calendar(path)?.lastError ?? `no refusal and no error: ${path}`);
    expect(why('/loop.ics')).toMatch(/more than 5 redirects/);
    expect(why('/bomb.ics')).toMatch(/larger than 4 MB/);
    expect(why('/short-length.ics')).toMatch(/not an iCal(endar)? feed/);
    expect(why('/calendar.ics')).toMatch(/HTTP 503.*retry after 100000 s/);
    for (const path of ['/loop.ics', '/bomb.ics', '/short-length.ics', '/calendar.ics'])
      if (answer(path).status === 422) expect(calendar(path), path).toBeUndefined();
      else expect(calendar(path), path).toMatchObject({ state: 'failing' });

    // The slow ones fail at their deadline, saying so; their reads ended, and the service was reading meanwhile.
    // Settling includes storing the 5,000 events the big calendars keep, in chunks that leave room for reads: on a
    // busy machine that takes tens of seconds, so the bound is generous; the deadlines are held by the errors below.
    expect(settledMs).toBeLessThan(DEADLINE_MS + 60_000);
    for (const path of ['/drip.ics', '/long-length.ics'])
      expect(calendar(path), path).toMatchObject({
        state: 'failing',
        lastError: expect.stringMatching(/timed out after 3 s \(the whole answer must arrive within it\)/),
        counts: { listed: 0 },
      });

    // Too many events: the first ones kept, in start order, and the host told why.
    const big = calendar('/big.ics')!;
    expect(big).toMatchObject({ state: 'ok', counts: { listed: CALENDAR_LIMITS.maxEvents } });
    expect(big.cut).toMatch(/first 1000 events: it has 10000 events, more than 1000/);
    for (const path of ['/hourly-3000.ics', '/hourly-500.ics']) {
      const series = calendar(path)!;
      expect(series.state, path).toBe('ok');
      expect(series.counts.listed, path).toBeLessThanOrEqual(CALENDAR_LIMITS.maxEvents);
      expect(series.cut, path).toMatch(/recurring events repeat more than 2000 times/);
    }
    // The earliest 1,000 of the 10,000 are the ones kept.
    const mine = await allEvents<{ start: string; externalId: string }>(`${svc.base}/api/events?mine=1&limit=100`, {
      key,
    });
    const kept = mine.filter((e) => e.externalId.startsWith(`${big.id}|`)).map((e) => Date.parse(e.start));
    const earliest = Array.from({ length: 10_000 }, (_, i) => startOf(i)).sort((a, b) => a - b);
    expect(kept.sort((a, b) => a - b)).toEqual(earliest.slice(0, CALENDAR_LIMITS.maxEvents));

    // The healthy calendar linked at the same time synced fully.
    expect(calendar('/healthy/')).toMatchObject({ state: 'ok', cut: null, counts: { listed: 3 } });
    // Not a speed target (those are the bench's, docs/performance.md): on a quiet machine the slowest read here takes
    // 60-100 ms, beside the rest of the suite on two cores up to 1.7 s; a loop held by one calendar (reads waiting
    // more than 10 s) fails this.
    expect(slowestMs).toBeLessThan(5_000);
  }, 120_000);

  it('a host that asked to be left alone fails at once, and holds up neither a link nor the other calendars', async () => {
    // Once it has asked (at the first link, or here), every read of it fails at once until then.
    await call('POST', '/api/calendars', { url: `${pausedAt}/calendar.ics` });
    const started = performance.now();
    const again = await call('POST', '/api/calendars', { url: `${pausedAt}/other.ics` });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(again.status).toBe(422);
    expect(again.body.errors[0].message).toMatch(/asked not to be read before .* \(Retry-After\)/);
  });

  it('the operator’s sync answers 202 at once; its run is readable, and no calendar waits for another', async () => {
    const started = performance.now();
    const sync = await request(`${svc.base}/api/admin/sync`, { method: 'POST', key: ADMIN });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(sync.status).toBe(202);
    expect(sync.body).toMatchObject({ id: expect.stringMatching(/^sync_/), state: 'running' });
    const { run } = await adminSync(svc.base, ADMIN);
    expect(run.body.state).toBe('done');
    // The paused host fails at once, saying until when; the feed after it is read all the same.
    const feed = (source: string) => run.body.feeds.find((f: { source: string }) => f.source === source);
    expect(feed('paused-group').error).toMatch(/asked not to be read before .* \(Retry-After\)/);
    expect(feed('healthy-group')).toMatchObject({ created: 3 });
    const hosts = run.body.feeds.find((f: { source: string }) => f.source === 'host');
    expect(hosts.failingCalendars).toEqual(
      expect.arrayContaining([{ calendar: expect.stringMatching(/^cal_/), error: expect.stringMatching(/timed out/) }]),
    );
    // Each read ends by its deadline, and the slow hosts' reads overlap the others': the run is not their sum.
    const took = Date.parse(run.body.finishedAt) - Date.parse(run.body.startedAt);
    expect(took).toBeLessThan(3 * DEADLINE_MS + 5_000);
    expect((await request(`${svc.base}/api/admin/sync/sync_0000000000000000`, { key: ADMIN })).status).toBe(404);
    expect((await request(`${svc.base}/api/admin/sync/${sync.body.id}`)).status).toBe(401);
  }, 60_000);
});
