import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { enrichRecord } from '../src/importers/enrich.js';
import { icalImporter } from '../src/importers/ical.js';
import { readEventPlace, readLocation } from '../src/importers/ical-location.js';
import { MAX_INSTANCES } from '../src/importers/ical-time.js';
import type { ImportedRecord } from '../src/importers/importer.js';
import { jsonlImporter } from '../src/importers/jsonl.js';
import { whereOf } from '../src/render/when.js';

const now = new Date('2026-03-01T12:00:00Z');
/** A calendar around VEVENT bodies (lines), without VTIMEZONE unless given. */
const calendar = (...events: string[][]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', ...events.flatMap((e) => ['BEGIN:VEVENT', ...e, 'END:VEVENT']), 'END:VCALENDAR']
    .join('\r\n')
    .concat('\r\n');
const parse = (ics: string) => icalImporter.parse(ics, { now, defaultCountry: 'ch' });
const starts = (records: ImportedRecord[]) =>
  records.map((r) => ('instant' in r.start ? r.start.instant.toISOString() : r.start.date));

describe('iCal importer', () => {
  it('expands an open-ended series over the coming six months only, and caps dense series', () => {
    const monthly = parse(
      calendar([
        'UID:basel-js',
        'SUMMARY:Basel JS',
        'DTSTART;TZID=Europe/Zurich:20250911T190000',
        'RRULE:FREQ=MONTHLY;BYDAY=2TH',
        'LOCATION:Basel',
      ]),
    );
    expect(starts(monthly.records)).toEqual([
      '2026-03-12T18:00:00.000Z',
      '2026-04-09T17:00:00.000Z',
      '2026-05-14T17:00:00.000Z',
      '2026-06-11T17:00:00.000Z',
      '2026-07-09T17:00:00.000Z',
      '2026-08-13T17:00:00.000Z',
    ]);
    expect(monthly.records[0]).toMatchObject({ sourceId: 'basel-js#20260312T180000Z', end: undefined, city: 'Basel' });
    const dense = parse(
      calendar(['UID:d', 'SUMMARY:Standup', 'DTSTART:20260101T080000Z', 'RRULE:FREQ=DAILY;BYHOUR=8,17']),
    );
    expect(dense.records).toHaveLength(MAX_INSTANCES);
    expect(starts(dense.records)[0]).toBe('2026-03-01T17:00:00.000Z'); // the morning one is over
  });

  it('adds RDATEs, knows IANA zones without a VTIMEZONE, and reads floating times in the country zone', () => {
    const { records } = parse(
      calendar(
        [
          'UID:r',
          'SUMMARY:Rust Berlin',
          'DTSTART;TZID=Europe/Berlin:20260305T190000',
          'DTEND;TZID=Europe/Berlin:20260305T210000',
          'RRULE:FREQ=WEEKLY;COUNT=2',
          'RDATE;TZID=Europe/Berlin:20260401T190000',
          'LOCATION:c-base\\, Rungestraße 20\\, 10179 Berlin',
        ],
        ['UID:f', 'SUMMARY:Floating', 'DTSTART:20260710T180000', 'LOCATION:Zug'],
      ),
    );
    expect(starts(records)).toEqual([
      '2026-03-05T18:00:00.000Z',
      '2026-03-12T18:00:00.000Z',
      '2026-04-01T17:00:00.000Z',
      '2026-07-10T16:00:00.000Z',
    ]);
    expect(records[2]).toMatchObject({
      city: 'Berlin',
      country: 'de',
      end: { instant: new Date('2026-04-01T19:00:00Z') },
    });
  });

  it('turns exclusive all-day ends into inclusive dates', () => {
    const { records } = parse(
      calendar(
        ['UID:a', 'SUMMARY:One day', 'DTSTART;VALUE=DATE:20260501'],
        ['UID:b', 'SUMMARY:Two days', 'DTSTART;VALUE=DATE:20260501', 'DTEND;VALUE=DATE:20260503'],
        ['UID:c', 'SUMMARY:Exclusive end', 'DTSTART;VALUE=DATE:20260501', 'DTEND;VALUE=DATE:20260502'],
      ),
    );
    expect(records.map((r) => [r.start, r.end])).toEqual([
      [{ date: '2026-05-01' }, { date: '2026-05-01' }],
      [{ date: '2026-05-01' }, { date: '2026-05-02' }],
      [{ date: '2026-05-01' }, { date: '2026-05-01' }],
    ]);
  });

  it('reads timed bounds from one local midnight to the next as one whole day', () => {
    const { records } = parse(
      calendar([
        'UID:m',
        'SUMMARY:Kotlin Day',
        'DTSTART;TZID=Europe/Zurich:20270105T000000',
        'DTEND;TZID=Europe/Zurich:20270106T000000',
        'LOCATION:Zug',
      ]),
    );
    const content = enrichRecord(records[0]!, 'ch');
    expect(content).toMatchObject({
      allDay: true,
      start: new Date('2027-01-04T23:00:00Z'),
      end: new Date('2027-01-05T23:00:00Z'),
    });
  });

  it('keeps the highest SEQUENCE of a repeated UID, and an orphaned override keeps its series id', () => {
    const { records } = parse(
      calendar(
        ['UID:x', 'SEQUENCE:3', 'SUMMARY:New title', 'DTSTART:20260401T170000Z'],
        ['UID:x', 'SEQUENCE:1', 'SUMMARY:Old title', 'DTSTART:20260401T170000Z'],
        ['UID:o', 'RECURRENCE-ID:20260402T170000Z', 'SUMMARY:Moved', 'DTSTART:20260403T170000Z'],
      ),
    );
    expect(records.map((r) => [r.sourceId, r.title])).toEqual([
      ['x', 'New title'],
      ['o#20260402T170000Z', 'Moved'],
    ]);
  });

  it('reports a syntactically broken VEVENT by name and still loads the others', () => {
    const ics = calendar(
      ['UID:ok', 'SUMMARY:Fine', 'DTSTART:20260401T170000Z'],
      ['UID:bad', 'SUMMARY:Garbled', 'this line has no colon', 'DTSTART:20260401T170000Z'],
    );
    const { records, errors } = parse(ics);
    expect(records.map((r) => r.title)).toEqual(['Fine']);
    expect(errors).toEqual([
      { record: '"Garbled" (bad)', message: expect.stringMatching(/^unreadable: invalid line/) },
    ]);
    expect(parse('').errors[0]).toMatchObject({ record: '(file)' });
  });

  it('reads organizer, link, categories, GEO and cancellation', () => {
    const ics = calendar([
      'UID:l',
      'SUMMARY:Luma Night',
      'DTSTART:20260401T170000Z',
      'ORGANIZER;CN=Zurich AI Society:mailto:hi@example.org',
      'DESCRIPTION:Get up-to-date information at: https://lu.ma/abc123.',
      'CATEGORIES:Robotics',
      'GEO:47.3769;8.5417',
      'STATUS:CANCELLED',
      'LOCATION:Zürich',
    ]);
    expect(parse(ics).records[0]).toMatchObject({
      organizer: 'Zurich AI Society',
      url: 'https://lu.ma/abc123',
      topicHints: ['Robotics'],
      lat: 47.3769,
      lng: 8.5417,
      cancelled: true,
      city: 'Zürich',
      venue: undefined,
      format: 'in_person',
    });
  });
});

describe('iCal LOCATION', () => {
  it.each([
    ['Impact Hub, Sihlquai 131, 8005 Zürich', 'in_person', 'Zürich'],
    ['Impact Hub Zürich - Viadukt (Viaduktstrasse 93-95, Zürich)', 'in_person', 'Zürich'],
    ['The Hub, CH-3011 Bern', 'in_person', 'Bern'],
    ['Talent Garden, Liechtensteinstraße 111-115, 1090 Wien, Österreich', 'in_person', 'Wien'],
    ['Factory Berlin, Rheinsberger Str. 76/77, 10115 Berlin, Germany', 'in_person', 'Berlin'],
    ['Kulturzentrum, Freiburg', 'in_person', 'Fribourg'], // the feed's country is preferred
    ['Zürich & Online', 'hybrid', 'Zürich'],
    ['Online event', 'online', undefined],
    ['https://zoom.us/j/123', 'online', undefined],
    ['Microsoft Teams Meeting', 'online', undefined],
    ['', undefined, undefined],
  ])('%s → %s %s', (location, format, city) => {
    const info = readLocation(location, false, 'ch');
    expect(info.format).toBe(format);
    expect(info.city).toBe(city);
  });

  it('places an event at the city of its LOCATION’s address, not its calendar’s, and names it once', () => {
    // devopsdays Zurich's venue, as a Zürich group's calendar would give it.
    const { records } = parse(
      calendar([
        'UID:dod',
        'SUMMARY:devopsdays Zurich',
        'DTSTART;TZID=Europe/Zurich:20270414T090000',
        'LOCATION:Alte Kaserne Winterthur\\, Technikumstrasse 8\\, 8400 Winterthur\\, Switzerland',
      ]),
    );
    expect(records[0]).toMatchObject({ city: 'Winterthur', country: 'ch' });
    // Enrichment reads the address too, whatever city the record carries (the calendar's, here).
    const event = enrichRecord({ ...records[0]!, city: 'Zürich' }, 'ch');
    expect(event).toMatchObject({ city: 'Winterthur', lat: 47.5056, lng: 8.7241, geoPrecision: 'city' });
    expect(whereOf(event)).toBe('Alte Kaserne Winterthur, Technikumstrasse 8, 8400 Winterthur, Switzerland');
    // Not a word that looks like a place ("Bar" is not Baar), nor a postcode of the wrong country's length.
    expect(enrichRecord({ ...records[0]!, city: 'Zürich', venue: 'Bar | Café' }, 'ch').city).toBe('Zürich');
    expect(enrichRecord({ ...records[0]!, city: 'Zürich', venue: 'Hauptstraße 1, 84000 Winterthur' }).city).toBe(
      'Zürich',
    );
  });

  it('an empty LOCATION with a GEO point is in person', () => {
    expect(readLocation('', true, 'ch').format).toBe('in_person');
  });
});

describe('Meetup’s export as served in 2026 (no LOCATION, no GEO)', () => {
  // A recorded response, byte for byte: test/fixtures/calendars/meetup-2026/README.md says where it is from.
  const captured = readFileSync(
    new URL('./fixtures/calendars/meetup-2026/placecal-2026-01-28.ics', import.meta.url),
    'utf8',
  );

  it('reads every event of the captured feed; none says where it is, so none is online or placed', () => {
    const { records, errors } = icalImporter.parse(captured, { now: new Date('2026-01-28T11:37:13Z') });
    expect(errors).toEqual([]);
    expect(records).toHaveLength(8);
    for (const record of records) {
      // "📍 Location: Address sent by PM" is no place, and nothing says online: the calendar's city stands in.
      expect(record).toMatchObject({
        placeFrom: 'calendar',
        organizer: 'London Bisexual Women Games, Snacks & Wine Group',
      });
      expect(record.format).toBeUndefined();
      expect(record.city).toBeUndefined();
      expect(record.venue).toBeUndefined();
      expect(record.url).toMatch(/^https:\/\/www\.meetup\.com\/london-bisexual-women-games-wine-group\/events\/\d+\/$/);
    }
    // Local times of the group's zone (Europe/London, GMT in January).
    expect(records[0]!.start).toEqual({ instant: new Date('2026-01-30T19:00:00Z') });
  });

  it('gives the same digest to the same calendar served at another time (DTSTAMP), another to a changed one', () => {
    const later = captured.replaceAll('DTSTAMP:20260128T113713Z', 'DTSTAMP:20260129T080000Z');
    expect(later).not.toBe(captured);
    expect(icalImporter.digest!(later)).toBe(icalImporter.digest!(captured));
    const moved = captured.replace(
      'DTSTART;TZID=Europe/London:20260130T190000',
      'DTSTART;TZID=Europe/London:20260130T193000',
    );
    expect(icalImporter.digest!(moved)).not.toBe(icalImporter.digest!(captured));
  });

  it.each([
    [
      'a labelled line with an address',
      'Rust Meetup',
      'Group\n**Talks**\n📍 Ort: Impact Hub, Sihlquai 131, 8005 Zürich',
      'in_person',
      'Zürich',
      'description',
    ],
    [
      'a labelled venue in a town',
      'Rust Meetup',
      'Group\nLocation: Impact Hub Zürich',
      'in_person',
      'Zürich',
      'description',
    ],
    [
      'an address with a postcode',
      'Rust Meetup',
      'Group\nWe meet at Sihlquai 131, 8005 Zürich, 2nd floor',
      'in_person',
      'Zürich',
      'description',
    ],
    [
      'a French label, the venue’s town before the street’s',
      'Meetup',
      'Groupe\nLieu : Impact Hub Lausanne, Rue de Genève 77',
      'in_person',
      'Lausanne',
      'description',
    ],
    ['a title that says online', 'Online: Rust Meetup', 'Group\nJoin us', 'online', undefined, 'event'],
    ['a meeting link', 'Rust Meetup', 'Group\nJoin: https://zoom.us/j/12345', 'online', undefined, 'event'],
    [
      'both said',
      'Rust Meetup',
      'Group\nThis event is hybrid.\nLocation: Impact Hub, Sihlquai 131, 8005 Zürich',
      'hybrid',
      'Zürich',
      'description',
    ],
    [
      'no place, a passing “online” and a chat link',
      'Rust Meetup',
      'Group\nLocation: TBA\nRSVP online, join our Discord https://discord.gg/x',
      undefined,
      undefined,
      'calendar',
    ],
    [
      'a label naming a village’s word',
      'Games Night',
      'Group\n📍 Location: Sent by PM',
      undefined,
      undefined,
      'calendar',
    ],
    ['remote as a subject', 'Remote Work Meetup', 'Group\nTalks about remote teams', undefined, undefined, 'calendar'],
  ])('%s', (_case, title, description, format, city, from) => {
    const place = readEventPlace({ location: undefined, hasGeo: false, title, description, preferred: 'ch' });
    expect(place).toMatchObject({ from });
    expect(place.format).toBe(format);
    expect(place.city).toBe(city);
  });
});

describe('JSON lines importer', () => {
  const parseLines = (...lines: string[]) => jsonlImporter.parse(lines.join('\n'), { now });
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({ title: 'Night', startAt: '2026-04-01T18:00:00+02:00', city: 'Bern', ...fields });

  it('reads an all-day line ending at midnight as ending the day before, and a plain end date as the last day', () => {
    const { records } = parseLines(
      line({ externalId: 'm', allDay: true, startAt: '2027-01-05T00:00:00+01:00', endAt: '2027-01-06T00:00:00+01:00' }),
      line({ externalId: 'p', allDay: true, startAt: '2027-01-05', endAt: '2027-01-06' }),
    );
    expect(records.map((r) => [r.start, r.end])).toEqual([
      [{ date: '2027-01-05' }, { date: '2027-01-05' }],
      [{ date: '2027-01-05' }, { date: '2027-01-06' }],
    ]);
  });

  it('ignores blank lines and reports bad JSON, repeated ids and points outside the country per line', () => {
    const { records, errors } = parseLines(
      line({ externalId: 'a' }),
      '   ',
      '{"title": ',
      line({ externalId: 'a' }),
      line({ externalId: 'b', lat: 48.85, lng: 2.35 }),
      line({ externalId: 'c', country: 'de', lat: 46.95, lng: 7.45 }),
    );
    expect(records.map((r) => r.sourceId)).toEqual(['a']);
    expect(errors).toEqual([
      { record: 'line 3', message: expect.stringMatching(/^not valid JSON/) },
      { record: 'line 4', message: 'externalId: "a" is already used on line 1' },
      { record: 'line 5', message: 'lat: the point is not in Switzerland, Germany or Austria' },
      { record: 'line 6', message: 'lat: the point is in ch, not in de' },
    ]);
  });
});
