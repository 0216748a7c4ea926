import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogueEvent, type EventContent, plainContentOf } from '../src/catalogue/event.js';
import { loadDemoCatalogue } from '../src/demo/load.js';
import { rowToEvent } from '../src/storage/event-rows.js';
import { openTestContext, type TestContext } from './helpers/context.js';
import { ENGINES } from './helpers/engines.js';

/**
 * The start-up read (`pagesNotEndedSince`: pages of JSON rows, decoded with shared values) must return exactly the
 * events a plain `SELECT *` returns through node-postgres, field for field, on both engines, whatever the page size
 * and read-ahead, and whatever the text holds.
 */

const NOW = '2026-03-01T09:00:00Z';
const SINCE = new Date('2026-02-28T09:00:00Z');

function content(overrides: Partial<EventContent>): EventContent {
  return {
    country: 'ch',
    title: 'Plain meetup',
    description: null,
    start: new Date('2026-03-10T18:00:00Z'),
    end: null,
    allDay: false,
    city: null,
    venue: null,
    format: 'online',
    topics: [],
    seniority: [],
    regMode: 'open',
    capacity: null,
    priceType: 'unknown',
    priceAmount: null,
    currency: 'CHF',
    organizer: 'Someone',
    url: null,
    sourceUrl: null,
    lat: null,
    lng: null,
    geoPrecision: 'none',
    visibility: 'public',
    cfpUrl: null,
    cfpUntil: null,
    ...plainContentOf({}),
    ...overrides,
  };
}

const ODD_CONTENT: Partial<EventContent>[] = [
  {
    title: 'Zürich – „KI“ Meetup \\ "quoted" \n line\ttab 🚀 \u2028',
    description: `${'Lange Beschreibung mit Umlauten äöü und "Anführungszeichen". '.repeat(120)}\\u0000`,
    start: new Date('2026-03-02T18:30:00.123Z'),
    end: new Date('2026-03-02T21:00:00.999Z'),
    city: 'Zürich',
    venue: 'Kongresshaus, Saal "A"',
    format: 'hybrid',
    topics: ['ai-ml', 'web', 'with "quotes", commas {braces}'],
    seniority: ['junior', 'senior'],
    regMode: 'waitlist',
    capacity: 250,
    priceType: 'paid',
    priceAmount: '12.50',
    url: 'https://example.org/e?a=1&b="2"',
    sourceUrl: 'https://example.org/e?a=1&b="2"',
    lat: 47.376887,
    lng: 8.541694,
    geoPrecision: 'exact',
  },
  { title: 'All day', allDay: true, start: new Date('2026-03-05T23:00:00Z'), end: new Date('2026-03-06T23:00:00Z') },
  { title: 'Free', priceType: 'free', priceAmount: '0.00', url: 'https://a.example', sourceUrl: 'https://b.example' },
  { title: 'Integral point', lat: 47, lng: 8, geoPrecision: 'city', city: 'Bern', country: 'ch' },
  { title: 'Unlisted', visibility: 'unlisted', country: 'de', currency: 'EUR' },
  { title: 'Ended long ago', start: new Date('2026-01-10T18:00:00Z'), end: new Date('2026-01-10T20:00:00Z') },
  { title: 'No end, started long ago', start: new Date('2026-02-01T18:00:00Z') },
  { title: 'No end, starts exactly at the bound', start: SINCE },
  { title: 'Ends exactly at the bound', start: new Date('2026-02-28T07:00:00Z'), end: SINCE },
];

function notEndedSince(event: CatalogueEvent, since: Date): boolean {
  return event.end ? event.end >= since : event.start >= since;
}

/** Plain objects: shared arrays are frozen, which toEqual does not mind, but make the comparison explicit. */
const plain = (events: CatalogueEvent[]) =>
  events.map((e) => ({ ...e, topics: [...e.topics], seniority: [...e.seniority] }));

describe.each(ENGINES)('the bulk read of not-ended events on %s', (engine) => {
  let t: TestContext;
  let expected: CatalogueEvent[];

  beforeAll(async () => {
    t = await openTestContext(engine, NOW);
    await loadDemoCatalogue(t.ctx, 500);
    for (const [i, overrides] of ODD_CONTENT.entries()) {
      await t.ctx.events.createLogged(
        { id: `odd-${i}`, owner: 'key:k1', externalId: `odd-${i}`, source: 'host' },
        content(overrides),
        { actor: 'test' },
      );
    }
    const cancelled = (await t.ctx.events.findById('odd-2'))!;
    await t.ctx.events.changeLogged(cancelled, { lifecycle: 'cancelled' }, { actor: 'test', action: 'cancel' });
    const updated = (await t.ctx.events.findById('odd-3'))!;
    const newTitle = content({ ...ODD_CONTENT[3], title: 'Integral point, updated' });
    await t.ctx.events.changeLogged(
      updated,
      { content: newTitle, source: 'host' },
      { actor: 'test', action: 'update' },
    );
    const rows = await t.ctx.storage.db.selectFrom('events').selectAll().orderBy('id').execute();
    expected = rows.map(rowToEvent).filter((e) => notEndedSince(e, SINCE));
  });
  afterAll(() => t?.close());

  it('reads the rows node-postgres reads, in id order, whatever the page size and read-ahead', async () => {
    expect(expected.length).toBeGreaterThan(400);
    expect(expected.some((e) => e.id === 'odd-6')).toBe(false);
    for (const options of [{}, { pageSize: 7 }, { pageSize: 1000 }, { readAhead: 2, pageSize: 7 }, { readAhead: 3 }]) {
      const pages: CatalogueEvent[][] = [];
      for await (const page of t.ctx.events.pagesNotEndedSince(SINCE, options)) pages.push(page);
      expect(plain(pages.flat()), JSON.stringify(options)).toEqual(plain(expected));
      expect(pages.every((p) => p.length <= (options.pageSize ?? 2000))).toBe(true);
    }
    expect(plain(await t.ctx.events.listNotEndedSince(SINCE))).toEqual(plain(expected));
  });

  it('gives equal values one object, and freezes the shared lists', async () => {
    const events = await t.ctx.events.listNotEndedSince(SINCE);
    const dates = new Map<number, Date>();
    const lists = new Map<string, string[]>();
    for (const e of events) {
      for (const date of [e.start, e.end, e.createdAt, e.updatedAt]) {
        if (!date) continue;
        const first = dates.get(date.getTime()) ?? date;
        dates.set(date.getTime(), first);
        expect(date).toBe(first);
      }
      const key = JSON.stringify(e.topics);
      const first = lists.get(key) ?? e.topics;
      lists.set(key, first);
      expect(e.topics).toBe(first);
      expect(Object.isFrozen(e.topics) && Object.isFrozen(e.seniority)).toBe(true);
    }
    expect(dates.size).toBeLessThan(events.length * 2); // of about four dates per event
    const odd = events.find((e) => e.id === 'odd-0')!;
    expect(odd.sourceUrl).toBe(odd.url);
  });
});
