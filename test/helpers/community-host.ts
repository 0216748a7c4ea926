import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DemoMeetupEvent, meetupCalendar } from '../../src/demo/calendars.js';

/**
 * Calendars communities propose, served on loopback: a group in Meetup's 2026 export (no LOCATION: its events are in
 * the city it is proposed with), one in the older export (LOCATION and GEO per event), a web page, a failing one.
 * Counts every connection and request, so a test can see that a refused address was never read.
 */
export function communityHost() {
  const zurichAi: DemoMeetupEvent[] = [
    { id: '501', title: 'Zurich AI: agents in production', start: '2026-11-12T18:30' },
    { id: '502', title: 'Zurich AI: evals night', start: '2026-12-03T18:30' },
    { id: '503', title: 'Zurich AI: December social', start: '2026-12-17T19:00' },
  ];
  const baselRust: DemoMeetupEvent[] = [
    {
      id: '601',
      title: 'Rust Basel: embedded',
      start: '2026-12-04T18:30',
      venue: 'Markthalle',
      address: 'Dornacherstrasse 192, 4053 Basel',
      lat: 47.543,
      lng: 7.595,
    },
  ];
  const requests: string[] = [];
  let connections = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const calendars = new Map<string, string>([
    ['/zurich-ai/events/ical/', meetupCalendar({ id: 'zurich-ai', name: 'Zurich AI' }, zurichAi)],
    [
      '/basel-rust/events/ical/',
      meetupCalendar({ id: 'basel-rust', name: 'Rust Basel' }, baselRust, { shape: 'legacy' }),
    ],
    ['/linked/events/ical/', meetupCalendar({ id: 'linked', name: 'Linked' }, baselRust, { shape: 'legacy' })],
  ]);
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const body = calendars.get(path);
    if (body) return res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(body);
    if (path === '/page')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Our events</title>');
    if (path === '/broken.ics') return res.writeHead(500).end('upstream error');
    if (path.startsWith('/group-')) {
      // Any number of groups, each with one event, answered after a little while as over the network: for a crowd
      // of proposals, whose reads must not all run at once.
      const id = path.split('/')[1]!;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res
          .writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' })
          .end(meetupCalendar({ id, name: id }, [{ id: '700', title: `${id} meets`, start: '2026-12-10T18:30' }]));
      }, 30);
      return;
    }
    res.writeHead(404).end('Not found');
  });
  server.on('connection', () => connections++);
  return {
    server,
    zurichAi,
    requests,
    connections: () => connections,
    maxInFlight: () => maxInFlight,
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
