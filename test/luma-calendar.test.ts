import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { icalImporter } from '../src/importers/ical.js';
import { placeOfPoint, readEventPlace } from '../src/importers/ical-location.js';
import { readLuma } from '../src/importers/ical-luma.js';
import type { ImportedRecord } from '../src/importers/importer.js';

// A real Luma calendar feed, served on 2025-10-21 (see fixtures/calendars/luma-2025/README.md).
const captured = readFileSync(
  new URL('./fixtures/calendars/luma-2025/network-school-2025-10-21.ics', import.meta.url),
  'utf8',
);

describe('a Luma calendar feed as Luma serves it', () => {
  const { records, errors } = icalImporter.parse(captured, { now: new Date('2025-10-21T16:40:10Z') });
  const byUid = (id: string): ImportedRecord => {
    const found = records.find((r) => r.sourceId === `${id}@events.lu.ma`);
    expect(found, id).toBeDefined();
    return found!;
  };

  it('reads every event, each under its UID, with the calendar as organizer (not the host’s name)', () => {
    expect(errors).toEqual([]);
    expect(records).toHaveLength(12);
    for (const record of records) expect(record.organizer).toBe('Network School');
  });

  it('takes the link from the description’s first line and keeps Luma’s lines out of the description', () => {
    const london = byUid('evt-qVaMCUXniGiHUoP');
    expect(london.url).toBe('https://luma.com/nslondon');
    // "Get up-to-date information at…", "Address:" and "Hosted by Tom Cares" are all the feed says of it.
    expect(london.description).toBeUndefined();
    expect(JSON.stringify(records)).not.toMatch(/Hosted by|Get up-to-date/);
  });

  it('reads UTC times as the instants they are', () => {
    expect(byUid('evt-qVaMCUXniGiHUoP')).toMatchObject({
      start: { instant: new Date('2023-10-26T17:30:00Z') },
      end: { instant: new Date('2023-10-27T00:00:00Z') },
    });
    expect(byUid('evt-vCIMmuI0oEZkGkC').start).toEqual({ instant: new Date('2025-11-19T21:30:00Z') });
  });

  it('places an event at its LOCATION’s address and its GEO, in person', () => {
    expect(byUid('evt-qVaMCUXniGiHUoP')).toMatchObject({
      venue: 'Newspeak House, 133 Bethnal Grn Rd, London E2 7DG, UK',
      format: 'in_person',
      placeFrom: 'event',
      lat: 51.525166,
      lng: -0.071346,
    });
  });

  it('reads the event’s own Luma page as LOCATION as no place: with GEO in person there, else online', () => {
    // An address shown to guests only, its GEO rounded: in person, at the point, no venue.
    const amsterdam = byUid('evt-rBxC2F0QwwIwEdz');
    expect(amsterdam).toMatchObject({ format: 'in_person', placeFrom: 'event', lat: 52.3725, lng: 4.9 });
    expect(amsterdam.venue).toBeUndefined();
    expect(amsterdam.url).toBe('https://luma.com/lns-meal');
    // No address block and no GEO: an online event, whose way in goes to guests.
    const connect = byUid('evt-GinpRzEbXdvAo82');
    expect(connect).toMatchObject({ format: 'online', placeFrom: 'event', url: 'https://luma.com/1rg83h6i' });
    expect(connect.venue).toBeUndefined();
    // "Address: Check event page for more details." and no GEO: in person, where is not said.
    expect(byUid('evt-eD1CHgLk4mtTjsM')).toMatchObject({ format: 'in_person', placeFrom: 'calendar' });
  });

  it('reads another site’s page as LOCATION as no place, and an event another calendar lists by that page', () => {
    // TNS Boulder's "address" is its Meetup group's page.
    const boulder = byUid('evt-jArh1CVXdapF7ga');
    expect(boulder).toMatchObject({ placeFrom: 'calendar', url: 'https://luma.com/qjs0volg' });
    expect(boulder.format).toBeUndefined();
    // calev-: "Find more information on <the calendar's page>", the event's page as LOCATION, GEO in London.
    const listed = byUid('calev-vG3wexz4mtcmqXs');
    expect(listed).toMatchObject({
      url: 'https://events.humanitix.com/soc-28-chartered-cities-and-network-states',
      format: 'in_person',
      lat: 51.47499,
    });
    expect(listed.venue).toBeUndefined();
  });

  it('reads its titles’ HTML ampersands as text', () => {
    expect(byUid('calev-vG3wexz4mtcmqXs').title).toBe('[SOC] #28 - Chartered Cities & Network States');
  });
});

describe('Luma’s signs, one by one', () => {
  it('an online room as LOCATION: online, and the room is the link when the event has no other', () => {
    const luma = readLuma('Hosted by A Group', 'https://us06web.zoom.us/j/81234567890');
    expect(luma).toMatchObject({ online: false, locationLink: 'https://us06web.zoom.us/j/81234567890' });
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'X-WR-CALNAME:Zurich Builders',
      'BEGIN:VEVENT',
      'UID:evt-Room0000000001@events.lu.ma',
      'DTSTART:20261210T170000Z',
      'SUMMARY:Office hours',
      'DESCRIPTION:Get up-to-date information at: https://luma.com/office-hours?pk=g-Secret123\\n\\nHosted by Someone',
      'LOCATION:https://us06web.zoom.us/j/81234567890',
      'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const [record] = icalImporter.parse(ics, { now: new Date('2026-12-01T00:00:00Z') }).records;
    // The event's page, without the guest's key; the room is no venue.
    expect(record).toMatchObject({
      format: 'online',
      url: 'https://luma.com/office-hours',
      organizer: 'Zurich Builders',
    });
    expect(record!.venue).toBeUndefined();
    // Without a page of its own, the room is the event's link.
    const roomOnly = icalImporter.parse(ics.replace(/^DESCRIPTION:.*\r\n/m, ''), { now: new Date('2026-12-01Z') });
    expect(roomOnly.records[0]).toMatchObject({ format: 'online', url: 'https://us06web.zoom.us/j/81234567890' });
    expect(readLuma(undefined, 'https://meet.google.com/abc-defg-hij').locationLink).toBe(
      'https://meet.google.com/abc-defg-hij',
    );
  });

  it('a guest’s joining link as LOCATION: online, and the link (a personal key) is not kept', () => {
    const luma = readLuma(
      'Get up-to-date information at: https://lu.ma/ai-office-hours',
      'https://lu.ma/join/g-Ab12Cd34',
    );
    expect(luma).toMatchObject({ online: true, link: 'https://lu.ma/ai-office-hours' });
    expect(luma.locationLink).toBeUndefined();
  });

  it('the "Address:" block names the venue when LOCATION does not', () => {
    const luma = readLuma(
      'Get up-to-date information at: https://luma.com/x\n\nAddress:\nImpact Hub Zürich\nSihlquai 131, 8005 Zürich\n\nHosted by Y',
      undefined,
    );
    expect(luma).toMatchObject({
      address: 'Impact Hub Zürich, Sihlquai 131, 8005 Zürich',
      hidden: false,
      online: false,
    });
    expect(luma.description).toBeUndefined();
  });

  it('GEO in ch/de/at names the town at its point when LOCATION names none', () => {
    expect(placeOfPoint({ lat: 47.3813, lng: 8.5357 })?.name).toBe('Zürich');
    expect(placeOfPoint({ lat: 52.3725, lng: 4.9 })).toBeUndefined();
    const place = readEventPlace({
      location: 'Rooftop, 5th floor',
      hasGeo: true,
      geo: { lat: 48.2085, lng: 16.3721 },
      title: 'Meetup',
      description: undefined,
    });
    expect(place).toMatchObject({ city: 'Wien', country: 'at', venue: 'Rooftop, 5th floor', format: 'in_person' });
  });
});
