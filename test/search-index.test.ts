import fc from 'fast-check';
import MiniSearch, { type SearchOptions } from 'minisearch';
import { describe, expect, it } from 'vitest';
import type { CatalogueEvent } from '../src/catalogue/event.js';
import { generateDemoEvents } from '../src/demo/generate.js';
import { BulkMiniSearch, releaseScoringScratch } from '../src/query/index/bulk-minisearch.js';
import { FullTextIndex, processTerm, SEARCH_FIELDS, type SearchDocument } from '../src/query/index/full-text.js';
import { PostingList } from '../src/query/index/posting-list.js';

/**
 * `BulkMiniSearch.addAll` builds the start-up index faster and smaller than `add` per document: it must build the
 * same index (every term, posting, frequency, field length and average, in the same order) and so return the same
 * results, score for score. And an index kept in step by `add` and `remove` must answer as one built at once from
 * the documents it holds, score for score (its field-length averages are exact sums over the count).
 */

type Doc = Omit<SearchDocument, 'id'> & { id: string };

const OPTIONS = { idField: 'id', fields: [...SEARCH_FIELDS], processTerm };
const SEARCH: SearchOptions = {
  boost: { title: 3, organizer: 2, topics: 1.5, venue: 1, city: 1, description: 0.6 },
  prefix: (t) => t.length >= 4,
  fuzzy: (t) => (t.length >= 5 ? 0.2 : false),
  maxFuzzy: 2,
};

function demoDocs(count: number, seed: number): Doc[] {
  return generateDemoEvents(count, new Date('2026-01-05T09:00:00Z'), { seed }).map((d, i) => ({
    id: `e${seed}-${i}`,
    title: d.content.title,
    // Some repeated words, so that term frequencies above 1 (and above 255) occur.
    description: i % 50 === 0 ? `${d.content.description} ${'Rust '.repeat(300)}` : (d.content.description ?? ''),
    organizer: d.content.organizer,
    venue: d.content.venue ?? '',
    city: d.content.city ?? '',
    topics: d.content.topics.join(' '),
  }));
}

/** Everything in the index, posting lists in their iteration order. */
function dump(index: MiniSearch<Doc>): unknown {
  const json = index.toJSON();
  const internal = index as unknown as { _index: Iterable<[string, Map<number, Iterable<[number, number]>>]> };
  const postings: unknown[] = [];
  for (const [term, fields] of internal._index)
    for (const [field, list] of fields) postings.push([term, field, ...[...list].flat()]);
  return { ...json, postings };
}

function queries(docs: Doc[]): string[] {
  const words = new Set<string>(['rust', 'kubernets', 'meetu', 'zurich', 'münchen', 'konferenz', 'ai', 'xyzzy']);
  for (const d of docs.slice(0, 40)) for (const w of d.title.split(' ')) words.add(w);
  return [...words];
}

function expectSameResults(a: MiniSearch<Doc>, b: MiniSearch<Doc>, terms: string[]): void {
  for (const term of terms) expect(b.search(term, SEARCH), term).toEqual(a.search(term, SEARCH));
}

/** Every result of every term, ordered by score then id (an index's own tie order follows its internal ids). */
function answers(index: MiniSearch<Doc>, terms: string[]): unknown {
  return terms.map((term) =>
    index
      .search(term, SEARCH)
      .map((r) => [r.id, r.score, Object.keys(r.match).sort()])
      .sort((a, b) => (b[1] as number) - (a[1] as number) || String(a[0]).localeCompare(String(b[0]))),
  );
}

describe('BulkMiniSearch.addAll', () => {
  it('builds the index add() builds, and answers every search alike', () => {
    // Unique titles (a field whose values never recur) beside recurring organisers, venues and cities.
    const docs = demoDocs(3000, 7).map((d, i) => ({ ...d, title: `${d.title} ${i}` }));
    const reference = new BulkMiniSearch<Doc>(OPTIONS);
    for (const d of docs) reference.add(d);
    const bulk = new BulkMiniSearch<Doc>(OPTIONS);
    for (let i = 0; i < docs.length; i += 700) bulk.addAll(docs.slice(i, i + 700));
    bulk.forgetBulkMemo();
    expect(dump(bulk)).toEqual(dump(reference));
    expectSameResults(reference, bulk, queries(docs));
    // MiniSearch itself holds the same postings; its field-length averages differ only in their last bits.
    const plain = new MiniSearch<Doc>(OPTIONS);
    for (const d of docs) plain.add(d);
    const { averageFieldLength: exact, ...rest } = bulk.toJSON();
    const { averageFieldLength: stepwise, ...plainRest } = plain.toJSON();
    expect(rest).toEqual(plainRest);
    for (const [f, avg] of exact.entries()) expect(avg).toBeCloseTo(stepwise[f]!, 9);
  });

  it('kept in step by add and remove, answers as an index built at once from what it holds', () => {
    const docs = demoDocs(2000, 11);
    const later = demoDocs(300, 12);
    const incremental = new BulkMiniSearch<Doc>(OPTIONS);
    incremental.addAll(docs);
    for (const d of later.slice(0, 150)) incremental.add(d);
    const removed = new Set<string>();
    for (let i = 0; i < docs.length; i += 3) {
      incremental.remove(docs[i]!);
      removed.add(docs[i]!.id);
    }
    incremental.addAll(later.slice(150));
    incremental.remove(later[0]!);
    removed.add(later[0]!.id);
    const held = [...docs, ...later].filter((d) => !removed.has(d.id));
    const fresh = new BulkMiniSearch<Doc>(OPTIONS);
    fresh.addAll(held);
    expect(incremental.documentCount).toBe(held.length);
    expect(incremental.toJSON().averageFieldLength).toEqual(fresh.toJSON().averageFieldLength);
    expect(answers(incremental, [...queries(docs), ...queries(later)])).toEqual(
      answers(fresh, [...queries(docs), ...queries(later)]),
    );
    expect(() => incremental.discard(docs[1]!.id)).toThrow(/remove/);
  });

  it('treats missing and empty fields as add() does', () => {
    const docs = demoDocs(60, 5).map((d, i) => {
      if (i % 3 === 0) return { ...d, venue: undefined, city: '' } as unknown as Doc;
      if (i % 7 === 0) return { id: d.id } as Doc;
      return d;
    });
    const reference = new BulkMiniSearch<Doc>(OPTIONS);
    for (const d of docs) reference.add(d);
    const bulk = new BulkMiniSearch<Doc>(OPTIONS);
    bulk.addAll(docs);
    expect(dump(bulk)).toEqual(dump(reference));
    expect(JSON.stringify(bulk)).toBe(JSON.stringify(reference));
  });

  it('rejects what add() rejects', () => {
    const bulk = new BulkMiniSearch<Doc>(OPTIONS);
    const [doc] = demoDocs(1, 3);
    bulk.addAll([doc!]);
    expect(() => bulk.addAll([doc!])).toThrow(/duplicate ID/);
    expect(() => bulk.addAll([{ ...doc!, id: undefined as unknown as string }])).toThrow(/ID field/);
  });
});

/** `search`'s answer as `scoreQuery` gives it: id → score and the fields matched, as bits of their position. */
function searched(index: MiniSearch<Doc>, query: string): Map<unknown, { score: number; fields: number }> {
  const out = new Map<unknown, { score: number; fields: number }>();
  for (const r of index.search(query, SEARCH)) {
    let fields = 0;
    for (const matched of Object.values(r.match))
      for (const f of matched) fields |= 1 << SEARCH_FIELDS.indexOf(f as never);
    out.set(r.id, { score: r.score, fields });
  }
  return out;
}

/** `scoreQuery`'s answer, each match as its score and fields. */
function scored(index: BulkMiniSearch<Doc>, query: string): Map<unknown, { score: number; fields: number }> {
  const matches = index.scoreQuery(query, SEARCH);
  const out = new Map<unknown, { score: number; fields: number }>();
  for (let i = 0; i < matches.size; i++)
    out.set(matches.idAt(i), { score: matches.scoreAt(i), fields: matches.fieldsAt(i) });
  return out;
}

describe('BulkMiniSearch.scoreQuery', () => {
  // Built in bulk (long lists as PostingLists) and then changed (deleted postings, Maps grown by add).
  const docs = demoDocs(2500, 21);
  const index = new BulkMiniSearch<Doc>(OPTIONS);
  index.addAll(docs);
  index.forgetBulkMemo();
  for (let i = 0; i < docs.length; i += 5) index.remove(docs[i]!);
  for (const d of demoDocs(200, 22)) index.add(d);
  const words = [...new Set(docs.slice(0, 200).flatMap((d) => `${d.title} ${d.organizer} ${d.city}`.split(/\s+/)))];

  it('answers as search does, score for score to the last bit, with the fields matched', () => {
    const asked = [
      ...queries(docs),
      ...words,
      'node.js meetup',
      'data data',
      'Data, AI & Cloud',
      'a',
      '',
      'konferenzen',
      'meetups',
      Array.from({ length: 40 }, (_, i) => words[i % words.length]).join(' '),
    ];
    for (const query of asked) expect(scored(index, query), query).toEqual(searched(index, query));
  });

  it('answers alike after an idle process gave its scoring tables back', () => {
    const query = `${words[0]} ${words[1]} meetup`;
    const before = scored(index, query);
    expect(before.size).toBeGreaterThan(0);
    releaseScoringScratch();
    expect(scored(index, query)).toEqual(before);
    expect(scored(index, query)).toEqual(searched(index, query));
  });

  it('answers as search does for any query made of catalogue words, cut short, misspelt or joined', () => {
    const word = fc.constantFrom(...words).chain((w) =>
      fc.oneof(
        fc.constant(w),
        fc.nat(w.length).map((n) => w.slice(0, Math.max(2, n))),
        fc
          .tuple(fc.nat(w.length), fc.constantFrom(...'aeiorstxzäöü'))
          .map(([at, c]) => w.slice(0, at) + c + w.slice(at + 1)),
      ),
    );
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(' ', '-', ', ', '.'),
        (parts, sep) => {
          const query = parts.join(sep);
          expect(scored(index, query), query).toEqual(searched(index, query));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('PostingList', () => {
  type Op =
    | { kind: 'append' | 'setNew'; gap: number; freq: number }
    | { kind: 'set' | 'delete'; at: number; freq: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constantFrom('append' as const, 'setNew' as const),
      gap: fc.integer({ min: 1, max: 5 }),
      freq: fc.integer({ min: 1, max: 300 }),
    }),
    fc.record({
      kind: fc.constantFrom('set' as const, 'delete' as const),
      at: fc.nat(),
      freq: fc.integer({ min: 1, max: 300 }),
    }),
  );

  it('behaves as a Map under the operations MiniSearch performs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 32, max: 60 }), fc.array(op, { maxLength: 300 }), (initial, ops) => {
        const map = new Map<number, number>();
        for (let i = 0; i < initial; i++) map.set(i * 2, 1 + (i % 3));
        const list = PostingList.from(map)!;
        let next = initial * 2;
        for (const o of ops) {
          const keys = [...map.keys()];
          if ('gap' in o) {
            next += o.gap;
            map.set(next, o.freq);
            if (o.kind === 'append') list.append(next, o.freq);
            else list.set(next, o.freq);
          } else if (keys.length > 0) {
            const key = keys[o.at % keys.length]!;
            if (o.kind === 'set') {
              map.set(key, o.freq);
              list.set(key, o.freq);
            } else {
              expect(list.delete(key)).toBe(map.delete(key));
              expect(list.delete(key)).toBe(false);
            }
          }
          expect(list.size).toBe(map.size);
        }
        expect([...list]).toEqual([...map]);
        expect([...list.keys()]).toEqual([...map.keys()]);
        for (const key of map.keys()) expect(list.get(key)).toBe(map.get(key));
        expect(list.get(-1)).toBeUndefined();
        expect(list.has(next + 1)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('tolerates deletion while iterating, as a Map does', () => {
    const map = new Map<number, number>(Array.from({ length: 40 }, (_, i) => [i, 1]));
    const list = PostingList.from(map)!;
    const seen: number[] = [];
    for (const [id] of list) {
      seen.push(id);
      if (id % 2 === 0) list.delete(id + 1);
    }
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    expect(list.size).toBe(20);
  });

  it('drops deleted postings when most are deleted and another is added', () => {
    const map = new Map<number, number>(Array.from({ length: 100 }, (_, i) => [i * 3, 1 + (i % 200)]));
    const list = PostingList.from(map)!;
    for (let i = 0; i < 100; i++) {
      if (i % 4 === 0) continue;
      list.delete(i * 3);
      map.delete(i * 3);
    }
    for (let id = 300; id < 340; id++) {
      list.set(id, 300 + id);
      map.set(id, 300 + id);
    }
    list.set(3 * 4, 7);
    map.set(3 * 4, 7);
    expect([...list]).toEqual([...map]);
    expect(list.size).toBe(map.size);
    for (const [id, freq] of map) expect(list.get(id)).toBe(freq);
  });

  it('keeps maps whose keys are not ascending as they are', () => {
    expect(
      PostingList.from(
        new Map([
          [2, 1],
          [1, 1],
        ]),
      ),
    ).toBeUndefined();
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
   * Applies the steps to `live` (asking a term, removing a slot's event, or adding one in its place), calling `after`
   * with the term asked last once each step is done; then checks that it answers every term as a fresh index of what
   * it holds.
   */
  function replay(live: FullTextIndex, steps: Step[], after: (asked: string | undefined) => void = () => {}): void {
    const held = new Map<number, CatalogueEvent>();
    let asked: string | undefined;
    for (const s of steps) {
      if (s.kind === 'ask') {
        asked = s.term;
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
      after(asked);
    }
    const fresh = new FullTextIndex();
    fresh.load([...held].map(([slot, event]) => ({ slot, event })));
    for (const term of TERMS) {
      expect([...live.slotsMatching(term)].sort(), term).toEqual([...fresh.searchTerm(term).slots].sort());
    }
  }

  it('kept in step with adds and removes, holds the slots a fresh search finds', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => replay(new FullTextIndex(), steps)),
      { numRuns: 300 },
    );
  });

  it('keeps its sets within the slot bound as changes grow and shrink them, and answers alike', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const live = new FullTextIndex({ maxKeptSlots: 6 });
        replay(live, steps, (asked) => {
          // The count is what the kept sets hold, and within the bound unless the one set kept is larger by itself.
          const kept = (live as unknown as { matching: Map<string, Set<number>> }).matching;
          expect(live.slotsKept).toBe([...kept.values()].reduce((sum, slots) => sum + slots.size, 0));
          const lastAlone = asked === undefined ? 0 : live.slotsMatching(asked).size;
          expect(live.slotsKept).toBeLessThanOrEqual(Math.max(6, lastAlone));
        });
      }),
      { numRuns: 300 },
    );
  });
});
