import { describe, expect, it } from 'vitest';
import { search } from '../src/query/engine.js';
import { CatalogueIndex } from '../src/query/index/catalogue-index.js';
import { parseSearchParams } from '../src/query/params.js';
import { SecondSight } from '../src/runtime/cache-admission.js';
import { demoCatalogueEvents } from './helpers/demo-events.js';

describe('admission on second sight', () => {
  it('admits a key the second time it is asked for, within its window of distinct keys', () => {
    const admission = new SecondSight(3);
    expect(admission.admit('a')).toBe(false);
    expect(admission.admit('a')).toBe(true);
    expect(admission.admit('a')).toBe(true);
    expect(admission.admit('b')).toBe(false);
    expect(admission.admit('c')).toBe(false);
    expect(admission.admit('a')).toBe(true); // asked for last: still in the window
    expect(admission.admit('d')).toBe(false); // pushes out b, the least recently asked for
    expect(admission.admit('b')).toBe(false);
  });

  it('keeps a ranked result from the second time its query is asked, not the first', () => {
    const now = new Date('2026-01-05T09:00:00Z');
    const index = new CatalogueIndex(() => now);
    index.load(demoCatalogueEvents(500, now));
    const params = () => parseSearchParams({ country: 'de', q: 'AI meetup Berlin' });
    const first = search(index, params(), now);
    expect(first.events.length).toBeGreaterThan(0);
    const second = search(index, params(), now);
    const third = search(index, params(), now);
    expect(second).not.toBe(first); // ranked again: the first was not kept
    expect(third).toBe(second);
    expect(third.events.map((e) => e.entry.event.id)).toEqual(first.events.map((e) => e.entry.event.id));
    // A change to the index: ranked afresh (the query is known, so its new result is kept at once).
    index.apply({
      ...third.events[0]!.entry.event,
      title: 'Renamed',
      revision: third.events[0]!.entry.event.revision + 1,
    });
    const afterChange = search(index, params(), now);
    expect(afterChange).not.toBe(third);
    expect(search(index, params(), now)).toBe(afterChange);
  });
});
