import { describe, expect, it } from 'vitest';
import type { CatalogueEvent } from '../src/catalogue/event.js';
import { CatalogueIndex } from '../src/query/index/catalogue-index.js';
import { demoCatalogueEvents } from './helpers/demo-events.js';

/**
 * Loading in bulk (`load`, `loadPages`: documents added to the full-text index in batches) must leave the index
 * exactly as applying the same events one by one does; and later changes must follow the revision rule either way.
 */

const NOW = new Date('2026-01-05T09:00:00Z');

function demoEvents(count: number): CatalogueEvent[] {
  return demoCatalogueEvents(count, NOW, { seed: 3, lifecycle: (i) => (i % 17 === 0 ? 'cancelled' : 'listed') });
}

/** Full-text hits come in the order of the index's internal ids, which depend on how documents arrived. */
const byFirst = (a: unknown[], b: unknown[]) => (String(a[0]) < String(b[0]) ? -1 : 1);

function snapshot(index: CatalogueIndex, terms: string[]): unknown {
  return {
    size: index.size,
    countries: (['ch', 'de', 'at'] as const).map((c) =>
      index.visibleIn(c).map((e) => [e.event.id, e.place?.geonameId, [...e.kinds], e.foldedTitle, e.organizer.folded]),
    ),
    terms: (['ch', 'de', 'at'] as const).map((c) => {
      const shard = index.shard(c);
      return terms.map((t) =>
        Array.from(shard.text.searchTerm(t).slots, (slot, i) => {
          const hits = shard.text.searchTerm(t);
          return [shard.at(slot).event.id, hits.scores[i], hits.fields[i]];
        }).sort(byFirst),
      );
    }),
  };
}

const TERMS = ['rust', 'meetup', 'kubernets', 'zurich', 'münchen', 'konferenz', 'demo', 'synthetic', 'ai'];

describe('CatalogueIndex bulk loading', () => {
  it('builds the index that applying every event one by one builds', async () => {
    const events = demoEvents(3000);
    const oneByOne = new CatalogueIndex(() => NOW);
    for (const e of events) oneByOne.apply(e);
    const loaded = new CatalogueIndex(() => NOW);
    loaded.load(events);
    const paged = new CatalogueIndex(() => NOW);
    await paged.loadPages(
      (async function* () {
        for (let i = 0; i < events.length; i += 700) yield events.slice(i, i + 700);
      })(),
    );
    const expected = snapshot(oneByOne, TERMS);
    expect(snapshot(loaded, TERMS)).toEqual(expected);
    expect(snapshot(paged, TERMS)).toEqual(expected);
  });

  it('keeps the revision rule across loading, unlisting and reloading', async () => {
    const [a, b] = demoEvents(2).map((e) => ({ ...e, lifecycle: 'listed' as const }));
    const index = new CatalogueIndex(() => NOW);
    await index.loadPages(
      (async function* () {
        yield [a!, b!, { ...a!, revision: 3, title: 'Renamed Rust Meetup' }];
      })(),
    );
    expect(index.get(a!.id)?.event.title).toBe('Renamed Rust Meetup');
    expect(index.apply({ ...a!, revision: 2, title: 'Stale' })).toBe(false);
    expect(index.apply({ ...a!, revision: 4, lifecycle: 'cancelled' })).toBe(true);
    expect(index.get(a!.id)).toBeUndefined();
    expect(index.apply({ ...a!, revision: 3, title: 'Stale again' })).toBe(false);
    index.load([b!]);
    expect(index.apply({ ...b!, revision: 0, title: 'Older than loaded' })).toBe(false);
    expect(index.apply({ ...a!, revision: 3 })).toBe(false);
    expect(index.apply({ ...a!, revision: 5, title: 'Back' })).toBe(true);
    expect(index.get(a!.id)?.event.title).toBe('Back');
    const shard = index.shard(a!.country);
    expect([...shard.text.searchTerm('back').slots].map((slot) => shard.at(slot).event.id)).toEqual([a!.id]);
  });
});

describe('CatalogueIndex.prepareAhead', () => {
  it('computes every founder fit in slices, leaving the loop between them, as the first query would at once', async () => {
    const events = demoEvents(3000);
    const ahead = new CatalogueIndex(() => NOW);
    ahead.load(events);
    const lazy = new CatalogueIndex(() => NOW);
    lazy.load(events);
    let pauses = 0;
    expect(ahead.prepared).toBe(false);
    // A slice of 0 ms stops at every 64th event: many pauses, each a real turn of the loop.
    await ahead.prepareAhead(
      () =>
        new Promise<void>((resolve) =>
          setImmediate(() => {
            pauses++;
            resolve();
          }),
        ),
      () => false,
      0,
    );
    expect(pauses).toBeGreaterThan(3000 / 64 - 2);
    expect(ahead.prepared).toBe(true);
    for (const country of ['ch', 'de', 'at'] as const) {
      const shard = ahead.shard(country);
      for (const entry of shard.inOrder()) expect(entry.founderFit).not.toBe(-1);
      const expected = lazy.shard(country).founders();
      const got = shard.founders();
      const ids = (s: typeof shard, f: typeof got) =>
        f.slots.toArray().map((slot) => [s.at(slot).event.id, f.fit[slot]]);
      expect(ids(shard, got)).toEqual(ids(lazy.shard(country), expected));
      expect(got.slots.length).toBeGreaterThan(0);
    }
  });

  it('stops when told, and a query afterwards still finds every founder event', async () => {
    const events = demoEvents(2000);
    const index = new CatalogueIndex(() => NOW);
    index.load(events);
    let pauses = 0;
    await index.prepareAhead(
      async () => {
        pauses++;
      },
      () => pauses >= 2,
      0,
    );
    expect(pauses).toBe(2);
    // Not ready for a load balancer (see /readyz) until prepared.
    expect(index.prepared).toBe(false);
    const fresh = new CatalogueIndex(() => NOW);
    fresh.load(events);
    for (const country of ['ch', 'de', 'at'] as const) {
      expect(index.shard(country).founders().slots.length).toBe(fresh.shard(country).founders().slots.length);
    }
  });
});
