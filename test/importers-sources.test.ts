import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { confsTechImporter, topicOfPath } from '../src/importers/confs-tech.js';
import { developersEventsImporter } from '../src/importers/developers-events.js';
import { devopsdaysImporter } from '../src/importers/devopsdays.js';
import { enrichRecord, isElsewhere } from '../src/importers/enrich.js';
import { type Feed, feedUrls, loadFeeds } from '../src/importers/feeds.js';
import { languageOf } from '../src/importers/importer.js';
import { resolveCity } from '../src/places/gazetteer.js';
import { whereOf } from '../src/render/when.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const now = new Date('2026-11-01T12:00:00Z');

describe('languages', () => {
  it('is the one language a source names, else none', () => {
    expect(languageOf('DE')).toBe('de');
    expect(languageOf('EN')).toBe('en');
    expect(languageOf(['french'])).toBe('fr');
    expect(languageOf(['italian', 'italian'])).toBe('it');
    expect(languageOf('EN,DE')).toBeUndefined();
    expect(languageOf('EN, DE')).toBeUndefined();
    expect(languageOf(['english', 'german'])).toBeUndefined();
    expect(languageOf('ES')).toBeUndefined();
    expect(languageOf('')).toBeUndefined();
    expect(languageOf(undefined)).toBeUndefined();
  });
});

describe('confs.tech importer', () => {
  it('takes the topic from the repository layout, and carries the CFP and the language', () => {
    expect(topicOfPath('https://raw.githubusercontent.com/x/y/HEAD/conferences/2026/devops.json')).toBe('devops');
    expect(topicOfPath('test/fixtures/confs-tech/2027/data.json')).toBe('data');
    expect(topicOfPath('conferences.json')).toBeUndefined();
    const { records, errors } = confsTechImporter.parse(fixture('confs-tech/2026/devops.json'), {
      now,
      inputName: 'conferences/2026/devops.json',
    });
    expect(errors).toEqual([]);
    expect(records.find((r) => r.title === 'IT-Tage')).toMatchObject({
      sourceId: 'IT-Tage@2026-12-07',
      start: { date: '2026-12-07' },
      end: { date: '2026-12-10' },
      topicHints: ['devops'],
      cfpUrl: 'https://www.ittage.informatik-aktuell.de/index.html',
      cfpUntil: '2026-04-30',
      language: 'de',
    });
    expect(records.find((r) => r.title === 'IT Security Summit Munich')).toMatchObject({
      format: 'hybrid',
      cfpUrl: undefined,
      cfpUntil: undefined,
    });
  });

  it('keeps the topics rows already carry (the shipped seed), and a bilingual conference has no language', () => {
    const { records } = confsTechImporter.parse(fixture('confs-tech-excerpt.json'), {
      now,
      inputName: 'x/2026/ux.json',
    });
    const pgday = records.find((r) => r.title === 'Swiss PGDay')!;
    expect(pgday.topicHints).toEqual(['data', 'networking', 'opensource']);
    expect(pgday.language).toBeUndefined(); // "EN,DE"
    expect(pgday).toMatchObject({ cfpUrl: 'https://2026.pgday.ch/call-for-papers', cfpUntil: '2026-04-07' });
  });

  it('counts a conference abroad as elsewhere, not as an error', () => {
    const { records } = confsTechImporter.parse(fixture('confs-tech/2026/data.json'), { now });
    expect(records.map((r) => [r.title, isElsewhere(r)])).toEqual([
      ['Berlin Buzzwords', false],
      ['IT-Tage', false],
      ['Big Data Europe', true],
    ]);
  });
});

describe('devopsdays importer', () => {
  const zurich = fixture('devopsdays/2027/zurich/main.yml');

  it('reads the event of a main.yml as an all-day conference in its name city, with the venue and the CFP', () => {
    const { records, errors } = devopsdaysImporter.parse(zurich, { now });
    expect(errors).toEqual([]);
    expect(records).toEqual([
      {
        sourceId: '2027-zurich',
        title: 'devopsdays Zurich 2027',
        description: 'Devopsdays is coming to Zurich!',
        start: { date: '2027-04-14' },
        end: { date: '2027-04-15' },
        city: 'Zurich',
        venue: 'Alte Kaserne Winterthur, Technikumstrasse 8, 8400 Winterthur, Switzerland',
        format: 'in_person',
        topicHints: ['devops'],
        organizer: 'devopsdays Zürich',
        url: 'https://devopsdays.org/events/2027-zurich',
        cfpUrl: 'https://sessionize.com/devopsdays-zurich-2026/',
        cfpUntil: '2027-01-31T23:59:59+02:00',
      },
    ]);
  });

  it('never imports the organisers: nothing of team_members reaches a record', () => {
    for (const file of ['devopsdays/2027/zurich/main.yml', 'devopsdays/2027/geneva/main.yml']) {
      const text = JSON.stringify(devopsdaysImporter.parse(fixture(file), { now }));
      expect(text).not.toMatch(/ORGANISER-BIO|Example AG|Example SA|alex|linkedin|sponsor/i);
    }
  });

  it('takes GEO coordinates, a repeated key, blank CFP fields, and a list of events (the seed)', () => {
    const geneva = devopsdaysImporter.parse(fixture('devopsdays/2027/geneva/main.yml'), { now });
    expect(geneva.errors).toEqual([]);
    expect(geneva.records[0]).toMatchObject({
      title: 'devopsdays Geneva 2027',
      lat: 46.1758689,
      lng: 6.1364216,
      venue: 'HEG, Campus de Battelle, Rue de la Tambourine 17, 1227 Carouge',
      cfpUrl: undefined,
      cfpUntil: undefined,
    });
    const seed = devopsdaysImporter.parse(fixture('../../seed/devopsdays/dach-2025-2027.json'), { now });
    expect(seed.errors).toEqual([]);
    expect(seed.records.map((r) => r.sourceId)).toContain('2026-berlin');
    expect(seed.records.find((r) => r.sourceId === '2026-geneva')).toMatchObject({
      cfpUrl: 'https://devopsdays.org/events/2026-geneva/propose', // CFP dates, no link of its own: the site's page
      cfpUntil: '2026-02-06T23:59:00+01:00',
    });
  });

  it('skips an event without dates yet silently, names a bad one, and refuses what is not YAML', () => {
    expect(devopsdaysImporter.parse('name: "2028-zurich"\ncity: "Zurich"\nstartdate:\n', { now })).toEqual({
      records: [],
      errors: [],
    });
    expect(devopsdaysImporter.parse('name: "2028-zurich"\nstartdate: "next spring"\n', { now }).errors).toEqual([
      { record: '"2028-zurich"', message: 'startdate: "next spring" is not a date' },
    ]);
    expect(devopsdaysImporter.parse('name: [unclosed', { now }).errors[0]).toMatchObject({ record: '(file)' });
    expect(devopsdaysImporter.parse('<html>502</html>', { now }).errors[0]).toMatchObject({ record: '(file)' });
  });

  it('places an event at the city its venue address names: Zurich’s in Winterthur, Geneva’s in Carouge', () => {
    const seed = devopsdaysImporter.parse(fixture('../../seed/devopsdays/dach-2025-2027.json'), { now });
    const placed = (id: string) => enrichRecord(seed.records.find((r) => r.sourceId === id)!);
    const winterthur = resolveCity('Winterthur')!;
    expect(placed('2027-zurich')).toMatchObject({
      title: 'devopsdays Zurich 2027',
      country: 'ch',
      city: 'Winterthur',
      lat: winterthur.lat,
      lng: winterthur.lng,
      geoPrecision: 'city',
    });
    // The place line names Winterthur once, and never Zürich beside it.
    expect(whereOf(placed('2027-zurich'))).toBe(
      'Alte Kaserne Winterthur, Technikumstrasse 8, 8400 Winterthur, Switzerland',
    );
    // Published coordinates stay the exact point; the city is the one the address names.
    expect(placed('2027-geneva')).toMatchObject({
      city: 'Carouge',
      lat: 46.1758689,
      lng: 6.1364216,
      geoPrecision: 'exact',
    });
    expect(placed('2026-berlin')).toMatchObject({ city: 'Berlin', geoPrecision: 'city' });
    expect(whereOf(placed('2026-berlin'))).toBe(
      'KINDL – Zentrum für zeitgenössische Kunst, Am Sudhaus 3, 12053 Berlin',
    );
    // A venue naming no other city leaves the event where its name says.
    expect(whereOf(placed('2026-graz'))).toBe('WIFI & Campus02, Graz');
    expect(placed('2026-graz').city).toBe('Graz');
  });

  it('knows an event abroad by its city', () => {
    const { records } = devopsdaysImporter.parse(fixture('devopsdays/2026/amsterdam/main.yml'), { now });
    expect(isElsewhere(records[0]!)).toBe(true);
    expect(isElsewhere(devopsdaysImporter.parse(zurich, { now }).records[0]!)).toBe(false);
  });
});

describe('developers.events importer', () => {
  it('reads dates, online and hybrid events, cancellations, CFPs, languages and topics; repeats count once', () => {
    const { records, errors } = developersEventsImporter.parse(fixture('developers-events.json'), { now });
    expect(errors).toEqual([{ record: '#7 "Broken row"', message: expect.stringMatching(/^date\.0: /) }]);
    expect(records.map((r) => r.sourceId)).toEqual([
      '2026-12-06-Example DevFest Berlin',
      '2027-01-03-Example Cloud Day Zürich',
      '2027-01-19-Example Security Summit Wien',
      '2026-12-13-Example Online Conf',
      '2026-12-13-Example Paris JS',
    ]);
    const [berlin, zurich, wien, online, paris] = records;
    expect(berlin).toMatchObject({
      title: 'Example DevFest Berlin',
      start: { date: '2026-12-06' },
      end: { date: '2026-12-07' },
      city: 'Berlin',
      country: 'Germany',
      format: 'in_person',
      topicHints: ['cloud', 'kubernetes'],
      url: 'https://devfest.example.org/berlin',
      organizer: 'devfest.example.org',
      cfpUrl: 'https://sessionize.com/example-devfest',
      cfpUntil: '2026-09-15',
      language: 'de',
      cancelled: undefined,
    });
    expect(zurich).toMatchObject({ format: 'hybrid', end: { date: '2027-01-03' }, language: undefined });
    expect(wien).toMatchObject({ cancelled: true });
    expect(online).toMatchObject({ format: 'online', city: undefined, country: undefined });
    expect([berlin, zurich, wien, online, paris].map((r) => isElsewhere(r!))).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
    expect(isElsewhere(online!, 'ch')).toBe(false); // a feed naming a country takes its online events
  });

  it('refuses what is not its JSON', () => {
    expect(developersEventsImporter.parse('{"name":1}', { now }).errors).toEqual([
      { record: '(file)', message: 'expected a JSON array' },
    ]);
  });
});

describe('feeds file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tev-feeds-schema-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (feeds: unknown) => {
    const path = join(dir, 'feeds.json');
    writeFileSync(path, JSON.stringify(feeds));
    return path;
  };

  it('expands {year} to this year and the next, and each other placeholder over its values', () => {
    const feed: Feed = {
      source: 'confs',
      format: 'confs-tech',
      url: 'https://example.org/{year}/{topic}.json',
      each: { topic: ['data', 'devops'] },
    };
    expect(feedUrls(feed, now)).toEqual([
      'https://example.org/2026/data.json',
      'https://example.org/2026/devops.json',
      'https://example.org/2027/data.json',
      'https://example.org/2027/devops.json',
    ]);
    // The next year moves on by itself: the shipped file never goes stale.
    expect(feedUrls({ ...feed, years: 1 }, new Date('2027-01-01T00:00:00Z'))).toEqual([
      'https://example.org/2027/data.json',
      'https://example.org/2027/devops.json',
    ]);
    expect(feedUrls({ ...feed, url: ['https://a.example/{year}-{year}.ics'], each: undefined }, now)).toEqual([
      'https://a.example/2026-2026.ics',
      'https://a.example/2027-2027.ics',
    ]);
  });

  it('validates placeholders, values, years and seeds, naming the field', async () => {
    const base = { source: 'a', format: 'confs-tech' };
    const invalid = async (feed: object, message: RegExp) =>
      expect(loadFeeds(write([{ ...base, ...feed }]))).rejects.toThrow(message);
    await invalid({ url: 'https://x.example/{topic}.json' }, /\[0\]\.url: \{topic\} is not defined: list its values/);
    await invalid({ url: 'https://x.example/a.json', each: { topic: ['a'] } }, /\[0\]\.each\.topic: is not used/);
    await invalid({ url: 'https://x.example/{topic}', each: { topic: ['../x'] } }, /each\.topic\[0\]: must be letters/);
    await invalid({ url: 'https://x.example/{topic}', each: { topic: [] } }, /each\.topic: must not be empty/);
    await invalid({ url: 'https://x.example/a.json', years: 2 }, /\[0\]\.years: no URL has \{year\}/);
    await invalid({ url: 'https://x.example/{year}', each: { year: ['1'] } }, /each\.year: \{year\} is built in/);
    await invalid({ url: [] }, /\[0\]\.url: must list at least one URL/);
    await invalid({ url: 'a.json', seed: 'none.json' }, /seed .*none\.json of "a" not found/);
    await invalid({ url: 'a.json', licence: '' }, /\[0\]\.licence/);
    await invalid({ url: 'a.json', enabled: 'yes' }, /\[0\]\.enabled/);
    const many = Array.from({ length: 300 }, (_, i) => `t${i}`);
    await invalid({ url: 'https://x.example/{year}/{t}', each: { t: many } }, /expands to 600 URLs, more than 500/);
  });

  it('resolves relative templates and seeds against the file, and keeps disabled feeds', async () => {
    writeFileSync(join(dir, 'seed.json'), '[]');
    const feeds = await loadFeeds(
      write([
        { source: 'a', format: 'confs-tech', url: ['{year}/x.json', 'https://x.example/y.json'], seed: 'seed.json' },
        { source: 'b', format: 'developers-events', url: 'https://x.example/all.json', enabled: false },
      ]),
    );
    expect(feeds[0]).toEqual({
      source: 'a',
      format: 'confs-tech',
      url: [join(dir, '{year}/x.json'), 'https://x.example/y.json'],
      seed: join(dir, 'seed.json'),
    });
    expect(feedUrls(feeds[0]!, now)).toEqual([
      join(dir, '2026/x.json'),
      join(dir, '2027/x.json'),
      'https://x.example/y.json',
    ]);
    expect(feeds[1]!.enabled).toBe(false);
    expect(await loadFeeds(join(dir, 'missing.json'), { optional: true })).toEqual([]);
  });

  it('the shipped feeds file is valid: confs.tech, devopsdays and the calendars on, developers.events off', async () => {
    const feeds = await loadFeeds(new URL('../feeds.json', import.meta.url).pathname);
    expect(feeds.map((f) => [f.source, f.format, f.licence, f.enabled !== false])).toEqual([
      ['confs-tech', 'confs-tech', 'MIT', true],
      ['devopsdays', 'devopsdays', 'Apache-2.0', true],
      ['meetup', 'ical', 'Meetup terms of service', true],
      ['community-calendars', 'ical', "Google Calendar terms; each calendar's publisher", true],
      ['developers-events', 'developers-events', 'CC-BY-NC-4.0', false],
    ]);
    const urls = feedUrls(feeds[0]!, now);
    expect(urls).toContain(
      'https://raw.githubusercontent.com/tech-conferences/conference-data/HEAD/conferences/2027/javascript.json',
    );
    expect(feedUrls(feeds[1]!, now)).toContain(
      'https://raw.githubusercontent.com/devopsdays/devopsdays-web/HEAD/data/events/2026/zurich/main.yml',
    );
  });
});
