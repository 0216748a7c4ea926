import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceOwner } from '../src/catalogue/event.js';
import { bevyImporter } from '../src/importers/bevy.js';
import { FILE_RECORD } from '../src/importers/importer.js';
import { importerFor } from '../src/importers/registry.js';
import { calendarIdPrefix, syncCalendar } from '../src/use-cases/sync-calendars.js';
import { openTestContext, type TestContext } from './helpers/context.js';

// Recorded responses of GDG Jakarta's events (see fixtures/bevy/README.md).
const fixture = (name: string) => readFileSync(new URL(`./fixtures/bevy/${name}`, import.meta.url), 'utf8');
const slim = fixture('gdg-jakarta-event-slim.json');
const detail = fixture('gdg-jakarta-event-60014.json');
const LIST_URL = 'https://gdg.community.dev/api/event_slim/for_chapter/642/?status=Live';
const parse = (input: string) =>
  bevyImporter.parse(input, { now: new Date('2024-06-01T00:00:00Z'), inputName: LIST_URL });

describe('a Bevy chapter’s events list as the platform serves it', () => {
  it('is a format of the registry that the calendar sync reads, one chapter a URL', () => {
    expect(importerFor('bevy')).toBe(bevyImporter);
    expect(bevyImporter.calendar).toBe(true);
  });

  it('reads each event: title, UTC times, the chapter as organizer, its short public link', () => {
    const { records, errors } = parse(slim);
    expect(errors).toEqual([]);
    expect(records.map((r) => r.sourceId)).toEqual(['68277', '68245', '68292']);
    expect(records[0]).toMatchObject({
      title: '[IOX 24 JKT - Workshop] Build your first AI using Gemini',
      start: { instant: new Date('2024-06-30T06:00:00Z') },
      end: { instant: new Date('2024-06-30T09:00:00Z') },
      organizer: 'GDG Jakarta',
      url: 'https://gdg.community.dev/e/my8vvf/',
    });
  });

  it('takes the format from audience_type (is_virtual_event only says a livestream page exists); a list has no venue', () => {
    const [first] = parse(slim).records;
    // audience_type IN_PERSON, is_virtual_event true, "see you in-person!".
    expect(first).toMatchObject({ format: 'in_person', placeFrom: 'calendar' });
    expect(first!.venue).toBeUndefined();
    expect(first!.city).toBeUndefined();
  });

  it('reads the HTML description as text', () => {
    const [first] = parse(slim).records;
    expect(first!.description).toMatch(/^Build your first AI app with KMP and Compose Multiplatform using Gemini\n\n/);
    expect(first!.description).toContain('host Q&As');
    expect(first!.description).not.toMatch(/<\/?[a-z]+>|&amp;/);
  });

  it('reads one event in full: venue and city, the chapter’s country, times with their zone’s offset, its page, hybrid', () => {
    const { records, errors } = parse(detail);
    expect(errors).toEqual([]);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      sourceId: '60014',
      title: 'DevFest Jakarta 2023',
      // 08:45 to 17:00 in Asia/Jakarta (+07:00).
      start: { instant: new Date('2023-11-26T01:45:00Z') },
      end: { instant: new Date('2023-11-26T10:00:00Z') },
      venue: 'QBIG BSD City, Jalan BSD Raya Utama, 15331 Kabupaten Tangerang',
      city: 'Kabupaten Tangerang',
      country: 'ID',
      format: 'hybrid',
      placeFrom: 'event',
      url: 'https://gdg.community.dev/events/details/google-gdg-jakarta-presents-devfest-jakarta-2023/',
      topicHints: expect.arrayContaining(['Android', 'Flutter']),
    });
  });

  it('leaves out hidden events and drafts, cancels a cancelled one, reads a time without offset in the event’s zone', () => {
    const body = JSON.parse(slim) as { results: Record<string, unknown>[] };
    body.results[0]!.is_hidden = true;
    body.results[1]!.status = 'Canceled';
    body.results[2]!.start_date = '2024-06-30T09:00:00';
    const { records } = parse(JSON.stringify(body));
    expect(records.map((r) => r.sourceId)).toEqual(['68245', '68292']);
    expect(records[0]!.cancelled).toBe(true);
    expect(records[1]!.start).toEqual({ instant: new Date('2024-06-30T02:00:00Z') });
    body.results[2]!.status = 'Draft';
    expect(parse(JSON.stringify(body)).records.map((r) => r.sourceId)).toEqual(['68245']);
  });

  it('says what is wrong with what is not an events list', () => {
    expect(parse('<!DOCTYPE html><html></html>').errors).toEqual([
      { record: FILE_RECORD, message: expect.stringMatching(/^not valid JSON/) },
    ]);
    expect(parse('{"detail":"Not found."}').errors).toEqual([
      { record: FILE_RECORD, message: 'not a Bevy events list (no "results" of events)' },
    ]);
    const { errors } = parse(JSON.stringify({ results: [{ id: 1, title: 'No date' }] }));
    expect(errors).toEqual([{ record: '#1 "No date"', message: expect.stringContaining('start_date') }]);
  });
});

describe('a Bevy chapter synced as a calendar', () => {
  let test: TestContext;
  let base: string;
  const server = createServer((req, res) => {
    const ok = req.url?.startsWith('/api/event_slim/for_chapter/642/');
    res.writeHead(200, { 'content-type': ok ? 'application/json' : 'text/html' });
    res.end(ok ? slim : '<!DOCTYPE html><html><body>Sign in</body></html>');
  });
  const target = (path: string) => ({
    source: 'gdg',
    part: 'gdg-jakarta',
    url: `${base}${path}`,
    format: 'bevy',
    owner: sourceOwner('gdg'),
    actor: 'import:gdg',
    idPrefix: calendarIdPrefix('gdg-jakarta'),
    // As a feeds file's entry would give a chapter's city.
    country: 'ch' as const,
    city: 'Zürich',
  });

  beforeAll(async () => {
    test = await openTestContext('pglite', '2024-06-01T00:00:00Z');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await test?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('imports the chapter’s events, and says a page that is no events list is not one, in the format’s words', async () => {
    const run = await syncCalendar(test.ctx, target('/api/event_slim/for_chapter/642/?status=Live'), undefined, {
      importer: bevyImporter,
    });
    expect(run.error).toBeUndefined();
    expect(run.outcome).toBe('changed');
    expect(run.report).toMatchObject({ created: 3 });
    const again = await syncCalendar(test.ctx, target('/gdg-jakarta/'), undefined, { importer: bevyImporter });
    expect(again).toMatchObject({ outcome: 'failed', failedAs: 'not-calendar' });
    expect(again.error).toMatch(/^not a Bevy events list: not valid JSON/);
  });
});
