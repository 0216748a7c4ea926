import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoMeetupEvent, MEETUP_HEADERS, meetupCalendar } from '../src/demo/calendars.js';
import { runCli } from './helpers/process.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2026-11-26T10:00:00Z';
const ADMIN = 'calendars-check-admin-token';

const at = (n: number, title: string, more: Partial<DemoMeetupEvent> = {}): DemoMeetupEvent => ({
  id: String(320000000 + n),
  title,
  start: `2026-12-${String(n).padStart(2, '0')}T18:30`,
  ...more,
});

/** Calendars in every state `calendars check` tells apart, served as Meetup serves them in 2026. */
const CALENDARS: Record<string, { status: number; type?: string; body: string }> = {
  'zurich-ai': {
    status: 200,
    body: meetupCalendar({ id: 'zurich-ai', name: 'Zurich AI' }, [
      at(3, 'Agents night', {
        description: 'Talks on agents.\n📍 Location: Impact Hub, Viaduktstrasse 93, 8005 Zürich',
      }),
      at(10, 'Paper night'),
      at(17, 'Online AMA', { description: 'Join via Zoom: https://zoom.us/j/123456' }),
    ]),
  },
  'berlin-full': {
    status: 200,
    body: meetupCalendar(
      { id: 'berlin-full', name: 'Berlin Full', zone: 'Europe/Berlin' },
      // Twelve sessions planned; Meetup's export shows the next ten.
      Array.from({ length: 12 }, (_, i) => at(i + 1, `Berlin session ${i + 1}`)).slice(0, 10),
    ),
  },
  'quiet-wien': { status: 200, body: meetupCalendar({ id: 'quiet-wien', name: 'Quiet Wien' }, []) },
  'gone-graz': { status: 404, type: 'text/html', body: 'Not found' },
  'broken-basel': { status: 500, type: 'text/plain', body: 'upstream error' },
  'login-bern': { status: 200, type: 'text/html', body: '<html><body>Log in</body></html>' },
};
const CITY: Record<string, [string, string]> = {
  'zurich-ai': ['Zürich', 'ch'],
  'berlin-full': ['Berlin', 'de'],
  'quiet-wien': ['Wien', 'at'],
  'gone-graz': ['Graz', 'at'],
  'broken-basel': ['Basel', 'ch'],
  'login-bern': ['Bern', 'ch'],
};

describe('tech-events calendars check', () => {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req);
    const id = req.url?.match(/^\/([^/]+)\/events\/ical\/$/)?.[1];
    const calendar = id ? CALENDARS[id] : undefined;
    if (!calendar) return res.writeHead(404).end();
    res
      .writeHead(calendar.status, calendar.type ? { 'content-type': calendar.type } : MEETUP_HEADERS)
      .end(calendar.body);
  });
  let feedsFile: string;
  let svc: TestServer;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    feedsFile = join(tmpdir(), `tev-calendars-check-${process.pid}.json`);
    writeFileSync(
      feedsFile,
      JSON.stringify([
        {
          source: 'meetup',
          format: 'ical',
          url: `${base}/{group}/events/ical/`,
          window: 10,
          each: {
            group: Object.keys(CALENDARS).map((id) => ({ id, city: CITY[id]![0], country: CITY[id]![1] })),
          },
        },
      ]),
    );
    svc = await startTestServer('pglite', { now: NOW, env: { FEEDS_FILE: feedsFile, ADMIN_TOKEN: ADMIN } });
  });
  afterAll(async () => {
    await svc?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The table's rows by calendar, as cells. */
  const rowsOf = (table: string) =>
    new Map(
      table
        .split('\n')
        .filter((line) => line.startsWith('| meetup/'))
        .map((line) => {
          const cells = line.split(' | ').map((c) => c.replace(/^\| |\s\|$/g, '').trim());
          return [cells[0]!.replace('meetup/', ''), cells.slice(1)] as const;
        }),
    );

  it('prints one row a calendar: state, upcoming events, where their places come from, the next event', async () => {
    const from = requests.length;
    const run = await runCli(['calendars', 'check', '--feeds', feedsFile], { TECH_EVENTS_NOW: NOW });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('| Calendar | State | Events |');
    expect(run.stdout).toContain(
      'Calendars checked at 2026-11-26T10:00:00.000Z: 6 (2 ok, 1 empty, 1 gone, 1 failing, 1 not iCal).',
    );
    const rows = rowsOf(run.stdout);
    expect(rows.get('zurich-ai')).toEqual(['ok', '3', '0 / 1 / 1 / 1 / 0', '2026-12-03 17:30 UTC Agents night']);
    expect(rows.get('berlin-full')).toEqual([
      'ok',
      '10 (full)',
      '0 / 0 / 10 / 0 / 0',
      '2026-12-01 17:30 UTC Berlin session 1',
    ]);
    expect(rows.get('quiet-wien')).toEqual(['empty', '0', '0 / 0 / 0 / 0 / 0', '']);
    expect(rows.get('gone-graz')![0]).toMatch(/^gone: .*HTTP 404/);
    expect(rows.get('broken-basel')![0]).toMatch(/^failing: .*HTTP 500/);
    expect(rows.get('login-bern')![0]).toMatch(/^not iCal: /);
    // Each calendar read once (the 500 may be tried again, as the sync does), naming the service.
    const asked = requests.slice(from);
    for (const id of Object.keys(CALENDARS).filter((x) => x !== 'broken-basel'))
      expect(
        asked.filter((r) => r.url === `/${id}/events/ical/`),
        id,
      ).toHaveLength(1);
    expect(asked.every((r) => r.headers['user-agent']?.startsWith('tech-events/'))).toBe(true);
  });

  it('imports nothing, and answers the same behind the admin API, as JSON or the markdown table', async () => {
    const unauthorised = await fetch(`${svc.base}/api/admin/calendars/check`);
    expect(unauthorised.status).toBe(401);
    const res = await fetch(`${svc.base}/api/admin/calendars/check`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      checkedAt: string;
      calendars: { calendar: string; state: string; events: number }[];
    };
    expect(body.checkedAt).toBe(NOW.replace('Z', '.000Z'));
    expect(body.calendars.map((c) => [c.calendar, c.state, c.events])).toEqual([
      ['zurich-ai', 'ok', 3],
      ['berlin-full', 'ok', 10],
      ['quiet-wien', 'empty', 0],
      ['gone-graz', 'gone', 0],
      ['broken-basel', 'failing', 0],
      ['login-bern', 'not iCal', 0],
    ]);
    const md = await fetch(`${svc.base}/api/admin/calendars/check`, {
      headers: { authorization: `Bearer ${ADMIN}`, accept: 'text/markdown' },
    });
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(rowsOf(await md.text()).get('zurich-ai')![0]).toBe('ok');
    const events = (await (await fetch(`${svc.base}/api/events?country=ch&q=Agents+night`)).json()) as {
      events: unknown[];
    };
    expect(events.events).toEqual([]);
  });
});
