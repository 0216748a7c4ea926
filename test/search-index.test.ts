import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CatalogueEvent } from '../src/catalogue/event.js';
import { generateDemoEvents } from '../src/demo/generate.js';
import { FullTextIndex, SEARCH_FIELDS } from '../src/query/index/full-text.js';
import { MINISEARCH_SEARCH, miniSearchDocument, miniSearchTwin } from './helpers/minisearch-twin.js';

/**
 * The full-text index scores as MiniSearch (BM25+ with prefix and fuzzy matches) does with the same options, which it
 * was measured against (npm run eval); and an index kept in step by adds and removes answers exactly as one built at
 * once from the documents it holds.
 */

function demoEvents(count: number, seed: number): CatalogueEvent[] {
  return generateDemoEvents(count, new Date('2026-01-05T09:00:00Z'), { seed }).map(
    (d, i) =>
      ({
        title: d.content.title,
        // Some repeated words, so that term frequencies above 1 occur.
        description: i % 50 === 0 ? `${d.content.description} ${'Rust '.repeat(300)}` : (d.content.description ?? null),
        organizer: d.content.organizer,
        venue: d.content.venue ?? null,
        city: d.content.city ?? null,
        topics: d.content.topics,
      }) as unknown as CatalogueEvent,
  );
}

function queries(events: CatalogueEvent[]): string[] {
  const words = new Set<string>(['rust', 'kubernets', 'meetu', 'zurich', 'münchen', 'konferenz', 'ai', 'xyzzy']);
  for (const e of events.slice(0, 40)) for (const w of e.title.split(' ')) words.add(w);
  words.add('rust kubernetes meetup');
  words.add('rust rust');
  return [...words];
}

/** A query's hits as slot → [score, fields]. */
function hitsOf(index: FullTextIndex, query: string): Map<number, [number, number]> {
  const hits = index.searchTerm(query);
  return new Map([...hits.slots].map((slot, i) => [slot, [hits.scores[i]!, hits.fields[i]!]]));
}

describe('FullTextIndex.searchTerm', () => {
  // Topics are slugs in these events: the index reads them as their labels, MiniSearch here as the slugs.
  const events = demoEvents(1500, 7).map((e) => ({ ...e, topics: [] }) as unknown as CatalogueEvent);

  it('finds what MiniSearch finds, with its scores and the fields matched', () => {
    const index = new FullTextIndex();
    index.load(events.map((event, slot) => ({ slot, event })));
    const reference = miniSearchTwin();
    reference.addAll(events.map((e, slot) => miniSearchDocument(slot, e)));
    for (const query of queries(events)) {
      const ours = hitsOf(index, query);
      const theirs = reference.search(query, MINISEARCH_SEARCH);
      expect(ours.size, query).toBe(theirs.length);
      for (const r of theirs) {
        const [score, fields] = ours.get(r.id as number)!;
        expect(score, query).toBeCloseTo(r.score, 9);
        let bits = 0;
        for (const matched of Object.values(r.match))
          for (const f of matched) bits |= 1 << SEARCH_FIELDS.indexOf(f as never);
        expect(fields, query).toBe(bits);
      }
    }
  });

  it('kept in step by add and remove, answers exactly as an index built at once from what it holds', () => {
    const later = demoEvents(300, 12);
    const live = new FullTextIndex();
    live.load(events.slice(0, 1000).map((event, slot) => ({ slot, event })));
    const held = new Map(events.slice(0, 1000).map((event, slot) => [slot, event]));
    for (let slot = 0; slot < 1000; slot += 3) {
      live.remove(slot, held.get(slot)!);
      held.delete(slot);
    }
    later.forEach((event, i) => {
      const slot = i % 2 === 0 ? i * 3 : 1000 + i;
      live.add(slot, event);
      held.set(slot, event);
    });
    const fresh = new FullTextIndex();
    fresh.load([...held].sort(([a], [b]) => a - b).map(([slot, event]) => ({ slot, event })));
    expect(live.size).toBe(held.size);
    for (const query of queries([...events, ...later]))
      expect(hitsOf(live, query), query).toEqual(hitsOf(fresh, query));
  });
});

describe('FullTextIndex.slotsMatching', () => {
  // Words and their near misses (prefixes, one and two edits, umlauts), so prefix and fuzzy matches come and go.
  const WORDS = [
    'kubernetes',
    'kubernets',
    'kube',
    'rust',
    'rusty',
    'trust',
    'python',
    'pythonista',
    'münchen',
    'munchen',
    'react',
    'reactive',
    'data',
    'security',
    'secure',
    'meetup',
    'meetups',
    'night',
  ];
  const TERMS = ['Kubernetes', 'kubern', 'Rust', 'Python', 'München', 'React', 'Security', 'data', 'meetup', 'nigth'];
  const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 4 }).map((w) => w.join(' '));
  const doc = fc.record({ title: text, description: text, organizer: text, venue: text, city: text });
  const step = fc.oneof(
    fc.record({ kind: fc.constant('add' as const), slot: fc.nat(11), doc }),
    fc.record({ kind: fc.constant('remove' as const), slot: fc.nat(11) }),
    fc.record({ kind: fc.constant('ask' as const), term: fc.constantFrom(...TERMS) }),
  );
  const eventOf = (d: { title: string; description: string; organizer: string; venue: string; city: string }) =>
    ({ ...d, topics: [] }) as unknown as CatalogueEvent;

  type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

  /**
   * Applies the steps to `live` (asking a term, removing a slot's event, or adding one in its place), then checks that
   * it finds for every term the slots a fresh index of what it holds finds.
   */
  function replay(live: FullTextIndex, steps: Step[]): void {
    const held = new Map<number, CatalogueEvent>();
    for (const s of steps) {
      if (s.kind === 'ask') {
        live.slotsMatching(s.term);
      } else if (s.kind === 'remove' || held.has(s.slot)) {
        const old = held.get(s.slot);
        if (old) live.remove(s.slot, old);
        held.delete(s.slot);
      }
      if (s.kind === 'add') {
        const event = eventOf(s.doc);
        live.add(s.slot, event);
        held.set(s.slot, event);
      }
    }
    const fresh = new FullTextIndex();
    fresh.load([...held].map(([slot, event]) => ({ slot, event })));
    for (const term of TERMS) {
      const slots = [...fresh.searchTerm(term).slots].sort();
      expect(live.slotsMatching(term).slots().sort(), term).toEqual(slots);
      expect([...live.searchTerm(term).slots].sort(), term).toEqual(slots);
    }
  }

  it('after adds and removes, finds the slots a fresh index finds, as searchTerm does', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => replay(new FullTextIndex(), steps)),
      { numRuns: 300 },
    );
  });
});
