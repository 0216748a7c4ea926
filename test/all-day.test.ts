import { parseFeed } from '@rowanmanning/feed-parser';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * All-day events through the write API: `allDay: true` with local dates, or local midnight to a later local midnight.
 * Every output shows whole days, never an invented clock time.
 */
describe('all-day events', () => {
  let server: TestServer;
  let key: string;
  const post = (json: Record<string, unknown>) => request(`${server.base}/api/events`, { key, json });

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-11-23T09:00:00Z' });
    key = await server.createKey('Day Hosts', 'de');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('takes allDay with local dates, end inclusive, and stores local midnights', async () => {
    const res = await post({
      externalId: 'camp',
      title: 'Winter Code Camp',
      startAt: '2026-12-18',
      endAt: '2026-12-19',
      allDay: true,
      city: 'Hamburg',
    });
    expect(res.status).toBe(201);
    const { body } = await request(`${server.base}/api/events?country=de&q=winter+code+camp`);
    const event = body.events.find((e: { title: string }) => e.title === 'Winter Code Camp');
    // Local midnights in Berlin (UTC+1 in December), the end the exclusive midnight after the last day.
    expect(event).toMatchObject({ start: '2026-12-17T23:00:00.000Z', end: '2026-12-19T23:00:00.000Z', allDay: true });
  });

  it('reads a submission from local midnight to a later local midnight as all-day', async () => {
    const res = await post({
      externalId: 'day',
      title: 'Data Day Hamburg',
      startAt: '2026-12-18T00:00:00+01:00',
      endAt: '2026-12-19T00:00:00+01:00',
      city: 'Hamburg',
    });
    expect(res.status).toBe(201);
    const { body } = await request(`${server.base}/api/events?country=de&q=data+day+hamburg`);
    expect(body.events[0]).toMatchObject({ title: 'Data Day Hamburg', allDay: true });
  });

  it('shows no clock time in markdown, pages, JSON-LD, iCal and MCP', async () => {
    const md = await request(`${server.base}/de.md`);
    const row = md.text.split('\n').find((line) => line.includes('Data Day Hamburg'))!;
    expect(row).toMatch(/^\| Fri 18 Dec 2026 · Full day \|/);
    expect(md.text.split('\n').find((line) => line.includes('Winter Code Camp'))).toMatch(
      /Fri 18 Dec 2026 · Full day, until Sat 19 Dec/,
    );
    const page = await request(`${server.base}/de/events/data-day-hamburg`);
    expect(page.text).toContain('Full day');
    expect(page.text).not.toMatch(/00:00/);
    expect(page.text).toContain('"startDate":"2026-12-18"');
    const ics = await request(`${server.base}/de/events/winter-code-camp.ics`);
    const vevent = new ICAL.Component(ICAL.parse(ics.text)).getFirstSubcomponent('vevent')!;
    const start = vevent.getFirstPropertyValue('dtstart') as ICAL.Time;
    const end = vevent.getFirstPropertyValue('dtend') as ICAL.Time;
    expect(start.isDate).toBe(true);
    expect(start.toString()).toBe('2026-12-18');
    expect(end.toString()).toBe('2026-12-20');
    expect(ics.text).toContain('DTSTART;VALUE=DATE:20261218');
  });

  it('reads midnight to midnight as the one day before the end, with or without allDay, in every output', async () => {
    for (const [externalId, title, allDay] of [
      ['one-a', 'Kotlin Day Bremen', true],
      ['one-b', 'Swift Day Bremen', undefined],
    ] as const) {
      const res = await post({
        externalId,
        title,
        startAt: '2027-01-05T00:00:00+01:00',
        endAt: '2027-01-06T00:00:00+01:00',
        ...(allDay ? { allDay } : {}),
        city: 'Bremen',
      });
      expect(res.status, title).toBe(201);
      const slug = res.body.id as string;
      const { body } = await request(`${server.base}/api/events?country=de&city=Bremen&limit=100`);
      const event = body.events.find((e: { title: string }) => e.title === title);
      expect(event, title).toMatchObject({ start: '2027-01-04T23:00:00.000Z', end: '2027-01-05T23:00:00.000Z' });
      expect(event.allDay).toBe(true);
      const md = await request(`${server.base}/de/cities/bremen.md`);
      const row = md.text.split('\n').find((line) => line.includes(title))!;
      expect(row).toMatch(/^\| Tue 5 Jan 2027 · Full day \|/);
      const page = await request(`${server.base}/de/events/${slug}`);
      expect(page.text).not.toContain('6 Jan');
      expect(page.text).toContain('"startDate":"2027-01-05"');
      expect(page.text).toContain('"endDate":"2027-01-05"');
      const ics = await request(`${server.base}/de/events/${slug}.ics`);
      const vevent = new ICAL.Component(ICAL.parse(ics.text)).getFirstSubcomponent('vevent')!;
      expect((vevent.getFirstPropertyValue('dtstart') as ICAL.Time).toString()).toBe('2027-01-05');
      expect((vevent.getFirstPropertyValue('dtend') as ICAL.Time).toString()).toBe('2027-01-06');
      const atom = parseFeed((await request(`${server.base}/de/cities/bremen.atom`)).text);
      expect(atom.items.find((i) => i.title?.startsWith(title))?.title).toBe(
        `${title} · Tue 5 Jan 2027 · Full day · Bremen`,
      );
    }
  });

  it('refuses plain dates without allDay, an end before the start, and impossible offsets', async () => {
    const plain = await post({ title: 'X', startAt: '2026-12-18', city: 'Hamburg' });
    expect(plain.status).toBe(422);
    expect(plain.body.errors[0]).toMatchObject({ field: 'startAt', message: expect.stringMatching(/allDay/) });
    const backwards = await post({
      title: 'X',
      startAt: '2026-12-18',
      endAt: '2026-12-17',
      allDay: true,
      city: 'Hamburg',
    });
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors[0].field).toBe('endAt');
    for (const offset of ['+25:00', '-14:30', '+14:60', '+15:00']) {
      const res = await post({ title: 'X', startAt: `2026-12-18T10:00:00${offset}`, city: 'Hamburg' });
      expect(res.status, offset).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ field: 'startAt', message: expect.stringMatching(/offset/) });
    }
    expect((await post({ title: 'Y', startAt: '2026-12-18T10:00:00+14:00', city: 'Hamburg' })).status).toBe(201);
  });
});
