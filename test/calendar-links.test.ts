import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoMeetupEvent, meetupCalendar } from '../src/demo/calendars.js';
import { createDataDir, ENGINES } from './helpers/engines.js';
import { adminSync } from './helpers/http.js';
import { runCli } from './helpers/process.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2026-11-26T10:00:00Z';
const ADMIN = 'calendar-links-admin';

/** A host's own calendar, as Meetup's older export published it (with LOCATION and GEO). */
function hostCalendar() {
  const events: DemoMeetupEvent[] = [
    {
      id: '401',
      title: 'Zürich Data Night',
      start: '2026-12-02T18:30',
      venue: 'Impact Hub',
      address: 'Sihlquai 131, 8005 Zürich',
      lat: 47.3813,
      lng: 8.5357,
    },
    {
      id: '402',
      title: 'Zürich Data Breakfast',
      start: '2026-12-09T08:00',
      venue: 'Impact Hub',
      address: 'Sihlquai 131, 8005 Zürich',
    },
    {
      id: '403',
      title: 'Zürich Data Winter Party',
      start: '2026-12-16T19:00',
      venue: 'Impact Hub',
      address: 'Sihlquai 131, 8005 Zürich',
    },
  ];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path.startsWith('/group/'))
      return res
        .writeHead(200, { 'content-type': 'text/calendar' })
        .end(meetupCalendar({ id: 'zurich-data', name: 'Zürich Data' }, events, { shape: 'legacy' }));
    if (path.startsWith('/other/'))
      return res
        .writeHead(200, { 'content-type': 'text/calendar' })
        .end(meetupCalendar({ id: path.slice(7, 12), name: 'Other' }, [], { shape: 'legacy' }));
    if (path === '/page')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Events</title>');
    if (path === '/redirect-inside')
      return res
        .writeHead(302, { location: `http://127.0.0.2:${(server.address() as AddressInfo).port}/group/` })
        .end();
    res.writeHead(404).end('Not found');
  });
  let connections = 0;
  server.on('connection', () => connections++);
  return { server, events, connections: () => connections };
}

describe.each(ENGINES)('calendars hosts link to their keys, on %s', (engine) => {
  const upstream = hostCalendar();
  let svc: TestServer;
  let cal: string;
  let key: string;
  let other: string;

  const call = async (method: string, path: string, token: string | undefined, body?: unknown) => {
    const res = await fetch(`${svc.base}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      body: (await res.json()) as Record<string, any>,
    };
  };
  const link = (url: string, token = key) => call('POST', '/api/calendars', token, { url });
  /** The key's calendar once its first read has ended (a link answers 202 while it goes on). */
  const settled = async (calendarId: string, token = key) => {
    for (const until = Date.now() + 60_000; ; ) {
      const calendars = (await call('GET', '/api/calendars', token)).body.calendars as Record<string, any>[];
      const calendar = calendars.find((c) => c.id === calendarId)!;
      if (calendar.state !== 'syncing' || Date.now() > until) return calendar;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const mine = async () =>
    (await call('GET', '/api/events?mine=1&limit=100', key)).body.events as {
      id: string;
      title: string;
      lifecycle: string;
      externalId: string;
      organizer: string;
      source: string;
    }[];

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
    cal = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
    svc = await startTestServer(engine, {
      now: NOW,
      // The stand-in listens on 127.0.0.1: that address alone is allowed, every other private one refused.
      env: { CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32', CALENDARS_PER_KEY: '3', ADMIN_TOKEN: ADMIN },
    });
    key = await svc.createKey('Zürich Data', 'ch');
    other = await svc.createKey('Somebody Else', 'ch');
  });
  afterAll(async () => {
    await svc?.close();
    await new Promise((resolve) => upstream.server.close(resolve));
  });

  it('refuses what is not a public iCal feed, with a problem naming the field, and links nothing', async () => {
    const port = (upstream.server.address() as AddressInfo).port;
    const cases: [string, RegExp][] = [
      ['ftp://example.org/cal.ics', /must be an http\(s\) or webcal URL/],
      ['not a url', /absolute http\(s\) or webcal URL/],
      [
        `http://127.0.0.2:${port}/group/`,
        /refused: 127\.0\.0\.2:\d+ is a private, loopback, link-local or reserved network/,
      ],
      ['http://169.254.169.254/latest/meta-data/', /refused: 169\.254\.169\.254 is a private/],
      ['http://10.1.2.3/calendar.ics', /refused: 10\.1\.2\.3 is a private/],
      [`http://[::1]:${port}/group/`, /refused: \[::1\]:\d+ is a private/],
      [`http://[::ffff:127.0.0.2]:${port}/group/`, /refused/],
      // IPv6 spellings of loopback and of the reserved ranges (IANA's special-purpose registry): refused as written.
      ...[
        '::127.0.0.1', // IPv4-compatible (::/96)
        '::7f00:1',
        '::',
        '::ffff:0:7f00:1', // IPv4-translated
        '64:ff9b::7f00:1', // NAT64 of loopback
        '64:ff9b::a00:1', // NAT64 of 10.0.0.1
        '64:ff9b:1::808:808', // local-use NAT64
        '2002:7f00:1::1', // 6to4 of loopback
        '2002:a00:1::1', // 6to4 of 10.0.0.1
        '100::1', // discard-only
        '2001::1', // Teredo, in the IETF protocol assignments
        '2001:db8::1', // documentation
        '3fff::1', // documentation
        'fc00::1', // unique local
        'fd12:3456::1',
        'fe80::1', // link-local
        'fec0::1', // site-local
        'ff02::1', // multicast
      ].map((v6): [string, RegExp] => [
        `http://[${v6}]:${port}/group/`,
        /^is refused: \[[0-9a-f:.]+\]:\d+ is a private, loopback, link-local or reserved network$/,
      ]),
      [`${cal}/redirect-inside`, /refused: 127\.0\.0\.2:\d+ is a private/],
      [`${cal}/page`, /is not an iCal feed: not an iCalendar feed/],
      [`${cal}/missing.ics`, /could not be read: .*HTTP 404/],
    ];
    for (const [url, message] of cases) {
      const connections = upstream.connections();
      const res = await link(url);
      expect(res.status, url).toBe(422);
      expect(res.type).toMatch(/application\/problem\+json/);
      expect(res.body.errors, url).toEqual([{ field: 'url', message: expect.stringMatching(message) }]);
      // Refused before connecting: the stand-in (which answers on loopback) saw no connection for it.
      if (/^is refused/.test(res.body.errors[0].message) && !url.endsWith('/redirect-inside'))
        expect(upstream.connections(), url).toBe(connections);
    }
    expect((await call('POST', '/api/calendars', key, { url: cal, extra: 1 })).status).toBe(422);
    expect((await call('POST', '/api/calendars', undefined, { url: `${cal}/group/` })).status).toBe(401);
    expect((await call('GET', '/api/calendars', key)).body.calendars).toEqual([]);
  });

  let id = '';
  it('links a calendar: its events become the host’s own at once; a resend changes nothing', async () => {
    const res = await link(
      `webcal://127.0.0.1:${(upstream.server.address() as AddressInfo).port}/group/`.replace('webcal:', 'http:'),
    );
    // 201 once its first read is done, which a calendar of three events on loopback nearly always is within the
    // second linking waits; 202 while it goes on.
    expect([201, 202]).toContain(res.status);
    if (res.status === 201)
      expect(res.body).toMatchObject({ state: 'ok', created: true, sync: { created: 3 }, counts: { listed: 3 } });
    else expect(res.body).toMatchObject({ state: 'syncing', created: true });
    id = res.body.id;
    expect(await settled(id)).toMatchObject({ state: 'ok', counts: { listed: 3 } });
    expect(id).toMatch(/^cal_[0-9a-f]{16}$/);
    const events = await mine();
    expect(events.map((e) => e.title).sort()).toEqual([
      'Zürich Data Breakfast',
      'Zürich Data Night',
      'Zürich Data Winter Party',
    ]);
    expect(
      events.every((e) => e.organizer === 'Zürich Data' && e.source === 'host' && e.externalId.startsWith(`${id}|`)),
    ).toBe(true);
    const listing = (await call('GET', '/api/events?country=ch&q=Zürich+Data', undefined)).body.events as {
      title: string;
    }[];
    expect(listing.map((e) => e.title)).toContain('Zürich Data Night');
    // Its registration is where the calendar's events come from: an RSVP is sent there and nothing is recorded.
    const night = events.find((e) => e.title === 'Zürich Data Night')!;
    const rsvp = await call('POST', `/api/events/${night.id}/rsvp`, other);
    expect(rsvp.status).toBe(409);
    expect(rsvp.body).toMatchObject({
      code: 'registration-at-source',
      registrationUrl: 'https://www.meetup.com/zurich-data/events/401/',
    });
    expect((await call('GET', `/api/events/${night.id}/rsvp`, other)).body.code).toBe('registration-at-source');

    const again = await link(`${cal}/group/`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id, created: false });
    const list = await call('GET', '/api/calendars', key);
    expect(list.body.calendars).toEqual([
      expect.objectContaining({ id, url: `${cal}/group/`, state: 'ok', failures: 0 }),
    ]);
    // Only its own key sees or unlinks it.
    expect((await call('GET', '/api/calendars', other)).body.calendars).toEqual([]);
    expect((await call('DELETE', `/api/calendars/${id}`, other)).status).toBe(404);
  });

  it('a host’s own cancel wins over its calendar until the host restores the event', async () => {
    const night = (await mine()).find((e) => e.title === 'Zürich Data Night')!;
    const cancel = await call('DELETE', `/api/events?externalId=${encodeURIComponent(night.externalId)}`, key);
    expect(cancel.status).toBe(200);
    expect((await adminSync(svc.base, ADMIN)).run.body.state).toBe('done');
    expect((await mine()).find((e) => e.id === night.id)!.lifecycle).toBe('cancelled');
    expect((await call('POST', '/api/events', key, { action: 'restore', externalId: night.externalId })).status).toBe(
      200,
    );
    expect((await mine()).find((e) => e.id === night.id)!.lifecycle).toBe('listed');
  });

  it('an event gone from the calendar is retired at the next sync', async () => {
    upstream.events.splice(1, 1);
    expect((await adminSync(svc.base, ADMIN)).run.body.state).toBe('done');
    const events = await mine();
    expect(events.find((e) => e.title === 'Zürich Data Breakfast')!.lifecycle).toBe('cancelled');
    expect(events.filter((e) => e.lifecycle === 'listed')).toHaveLength(2);
  });

  it('refuses a link over the key’s limit', async () => {
    expect([201, 202]).toContain((await link(`${cal}/other/aaaaa`)).status);
    expect([201, 202]).toContain((await link(`${cal}/other/bbbbb`)).status);
    const over = await link(`${cal}/other/ccccc`);
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('too-many-calendars');
  });

  it('unlinking retires the calendar’s upcoming events, never deleting them', async () => {
    const res = await call('DELETE', `/api/calendars/${id}`, key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, unlinked: true, retired: 2 });
    const events = await mine();
    expect(events.filter((e) => e.externalId.startsWith(`${id}|`)).every((e) => e.lifecycle === 'cancelled')).toBe(
      true,
    );
    const page = await fetch(`${svc.base}/ch/events/${events[0]!.id}`);
    expect(page.status).toBe(200);
    expect((await call('GET', '/api/calendars', key)).body.calendars.map((c: { id: string }) => c.id)).not.toContain(
      id,
    );
    expect((await call('DELETE', `/api/calendars/${id}`, key)).status).toBe(404);
  });
});

describe('tech-events calendars (CLI, embedded engine)', () => {
  const dir = createDataDir('tev-calendars-cli-');
  const upstream = hostCalendar();
  let env: Record<string, string>;
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await new Promise((resolve) => upstream.server.close(resolve));
  });

  it('links, lists and unlinks a host’s calendar by key id; refuses bad arguments', async () => {
    await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}/group/`;
    env = { DATA_DIR: dir, TECH_EVENTS_NOW: NOW, CALENDARS_ALLOW_PRIVATE_ADDRESSES: '1' };
    const created = await runCli(['keys', 'create', '--name', 'Zürich Data'], env);
    const keyId = created.stdout.trim().split('\n').at(-1)!.slice(4, 16);

    const linked = await runCli(['calendars', 'link', url, '--key', keyId], env);
    expect(linked.status, linked.stderr).toBe(0);
    expect(linked.stdout).toMatch(
      new RegExp(`Linked (cal_[0-9a-f]{16}) to key ${keyId}: created 3, updated 0, cancelled 0, skipped 0`),
    );
    const id = linked.stdout.match(/cal_[0-9a-f]{16}/)![0];

    const listed = await runCli(['calendars', 'list'], env);
    expect(listed.stdout).toContain(`${id}\t${keyId}\tok\t3 upcoming\t${url}`);

    const unlinked = await runCli(['calendars', 'unlink', id], env);
    expect(unlinked.stdout).toContain(`Unlinked ${id}; 3 upcoming events retired.`);

    const bad = await runCli(['calendars', 'link', 'ftp://example.org/x.ics', '--key', keyId], env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/url: must be an http\(s\) or webcal URL/);
    expect((await runCli(['calendars', 'link', url], env)).status).toBe(2);
  }, 240_000);
});
