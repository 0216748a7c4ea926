import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NASTY, startEscapingServer } from './helpers/escaping-server.js';
import { request } from './helpers/http.js';
import type { TestServer } from './helpers/server.js';

function parseCalendar(text: string) {
  const component = new ICAL.Component(ICAL.parse(text));
  return { component, events: component.getAllSubcomponents('vevent').map((v) => ({ v, e: new ICAL.Event(v) })) };
}
describe('iCal over the same query engine', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    ({ server, key } = await startEscapingServer());
  });
  afterAll(() => server?.close());

  it('is an RFC 5545 calendar that ical.js reads with correct times, reminders and links', async () => {
    const res = await request(`${server.base}/api/calendar?q=${encodeURIComponent('web in Zürich')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.text.includes('\r\n')).toBe(true);
    expect(res.text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const { component, events } = parseCalendar(res.text);
    expect(component.getFirstPropertyValue('x-wr-calname')).toBe('Tech events · “web in Zürich”');
    expect(String(component.getFirstPropertyValue('refresh-interval'))).toBe('PT1H');
    expect(component.getAllSubcomponents('vtimezone').map((t) => t.getFirstPropertyValue('tzid'))).toContain(
      'Europe/Zurich',
    );
    const nasty = events.find(({ e }) => e.summary === NASTY)!;
    expect(nasty).toBeDefined();
    expect(nasty.e.startDate.toJSDate().toISOString()).toBe('2025-03-10T17:30:00.000Z');
    expect(nasty.e.endDate.toJSDate().toISOString()).toBe('2025-03-10T20:00:00.000Z');
    expect(nasty.e.startDate.zone?.tzid).toBe('Europe/Zurich');
    expect(nasty.e.location).toBe('Bar | Café, Zürich');
    expect(nasty.e.description).toContain('Line one; with, commas\nand a second line');
    expect(nasty.e.uid).toMatch(/@/);
    const url = String(nasty.v.getFirstPropertyValue('url'));
    expect(url).toMatch(new RegExp(`^${server.base}/ch/events/`));
    expect(nasty.v.getFirstPropertyValue('geo')).toEqual([expect.any(Number), expect.any(Number)]);
    expect(nasty.v.getFirstProperty('categories')!.getValues()).toContain('Web');
    expect(nasty.v.getAllSubcomponents('valarm').map((a) => String(a.getFirstPropertyValue('trigger')))).toEqual([
      '-P1D',
      '-PT1H',
    ]);
    expect(nasty.v.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(String(nasty.v.getFirstPropertyValue('dtstamp'))).toMatch(/Z$/);
  });

  it('writes all-day events as VALUE=DATE with their local dates', async () => {
    const { events } = parseCalendar((await request(`${server.base}/api/calendar?country=de&q=BASTA`)).text);
    const basta = events.find(({ e }) => e.summary === 'BASTA! Spring')!;
    expect(basta.e.startDate.isDate).toBe(true);
    expect(basta.e.startDate.toString()).toBe('2025-03-03');
    expect(basta.e.endDate.toString()).toBe('2025-03-08');
    expect(basta.v.getAllSubcomponents('valarm')).toHaveLength(1);
  });

  it('revalidates with a strong ETag (304), grows SEQUENCE on update, drops cancelled events from query feeds', async () => {
    const feed = `${server.base}/api/calendar?topic=web`;
    const first = await request(feed);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    expect(first.headers.get('last-modified')).toBeTruthy();
    const again = await fetch(feed, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);

    const seqOf = (text: string) =>
      parseCalendar(text).events.find(({ e }) => e.summary === 'Plain Meetup')!.e.sequence;
    const before = seqOf(first.text);
    await request(`${server.base}/api/events`, {
      key,
      json: {
        externalId: 'plain',
        title: 'Plain Meetup',
        startAt: '2025-03-11T18:30:00+01:00',
        city: 'Bern',
        topics: ['web'],
      },
    });
    const changed = await fetch(feed, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(seqOf(await changed.text())).toBe(before + 1);

    await request(`${server.base}/api/events?externalId=plain`, { key, method: 'DELETE' });
    const after = parseCalendar((await request(feed)).text);
    expect(after.events.map(({ e }) => e.summary)).not.toContain('Plain Meetup');
    // The event's own .ics says it is cancelled and has no reminders left.
    const single = parseCalendar((await request(`${server.base}/ch/events/plain-meetup.ics`)).text);
    expect(single.events[0]!.v.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(single.events[0]!.v.getAllSubcomponents('valarm')).toHaveLength(0);
    await request(`${server.base}/api/events`, { key, json: { action: 'restore', externalId: 'plain' } });
  });

  it('serves one event as .ics and 404s unknown ones', async () => {
    const res = await request(`${server.base}/ch/events/devopsdays-zurich.ics`);
    expect(res.status).toBe(200);
    const { events } = parseCalendar(res.text);
    expect(events.map(({ e }) => e.summary)).toEqual(['Devopsdays Zurich']);
    expect((await request(`${server.base}/ch/events/nope.ics`)).status).toBe(404);
  });

  it('offers the same feed for https and webcal subscriptions', async () => {
    const json = await request(`${server.base}/api/events?q=devops`);
    expect(json.body.calendar).toBe(`${server.base}/api/calendar?country=ch&q=devops`);
    const page = await request(`${server.base}/ch?q=devops`);
    const attr = (url: string) => `href="${url.replace(/&/g, '&amp;')}"`;
    expect(page.text).toContain(attr(json.body.calendar.replace('http:', 'webcal:')));
    expect(page.text).toContain(attr(json.body.calendar));
  });
});
