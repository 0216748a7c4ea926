import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CatalogueEvent, EventContent } from '../src/catalogue/event.js';
import { generateDemoEvents } from '../src/demo/generate.js';
import type { Country } from '../src/places/countries.js';
import { search } from '../src/query/engine.js';
import { CatalogueIndex } from '../src/query/index/catalogue-index.js';
import { parseSearchParams } from '../src/query/params.js';
import { describeQuery } from '../src/render/restate.js';

/**
 * The read index is kept in step change by change (see CatalogueIndex.apply). Whatever happened — events created,
 * updated, moved to another day or country, cancelled, restored, unlisted, duplicated by another source and
 * de-duplicated again, ended and forgotten, stale notifications — it must answer every query exactly as an index
 * built at once from the same events does: the same events, in the same order, with the same totals and reasons.
 */

const START = new Date('2026-03-02T08:00:00Z');
const POOL = generateDemoEvents(40, START, { seed: 9, days: 6 }).map((d) => d.content);
const COUNTRIES: Country[] = ['ch', 'de', 'at'];
const QUERIES: Record<string, string>[] = [
  {},
  { q: 'AI meetup' },
  { q: 'Kubernetes workshop near Zürich' },
  { q: 'security Berlin this week' },
  { q: 'free online python' },
  { q: 'demo venue 3' },
  { q: 'startup founders', who: 'founders' },
  { q: 'synthetic data conference', format: 'in_person' },
  { q: 'Rust', limit: '3' },
  { topic: 'ai-ml,security' },
  { q: 'community tomorrow' },
];

type Op =
  | { kind: 'create'; base: number; owner: number; shiftHours: number; copyOf: number }
  | { kind: 'update'; target: number; base: number }
  | { kind: 'move'; target: number; hours: number }
  | { kind: 'cancel' | 'restore' | 'unlist' | 'list' | 'stale'; target: number }
  | { kind: 'time'; hours: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      base: fc.nat(POOL.length - 1),
      owner: fc.nat(2),
      shiftHours: fc.integer({ min: -30, max: 30 }),
      // Half of the creates copy an existing event's title and day: a duplicate from another source.
      copyOf: fc.integer({ min: -1, max: 30 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('update' as const), target: fc.nat(), base: fc.nat(POOL.length - 1) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      target: fc.nat(),
      hours: fc.integer({ min: -48, max: 48 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom(
        'cancel' as const,
        'restore' as const,
        'unlist' as const,
        'list' as const,
        'stale' as const,
      ),
      target: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 40 }) }) },
);

/** The database as the index sees it: the current row of every event, and each row as it was before. */
class Catalogue {
  readonly rows = new Map<string, CatalogueEvent>();
  readonly history: CatalogueEvent[] = [];
  private next = 0;

  ids(): string[] {
    return [...this.rows.keys()];
  }

  /** Stores a new version of an event, as a write does (revision + 1), and returns it. */
  write(id: string, change: Partial<CatalogueEvent>): CatalogueEvent {
    const old = this.rows.get(id);
    const row = { ...old!, ...change, revision: (old?.revision ?? 0) + 1 } as CatalogueEvent;
    if (old) this.history.push(old);
    this.rows.set(id, row);
    return row;
  }

  create(content: EventContent, owner: number, now: Date): CatalogueEvent {
    const id = `e${this.next++}`;
    return this.write(id, {
      ...content,
      id,
      owner: `source:o${owner}`,
      externalId: id,
      source: `o${owner}`,
      lifecycle: 'listed',
      createdAt: now,
      updatedAt: now,
    });
  }
}

function run(catalogue: Catalogue, index: CatalogueIndex, clock: { now: Date }, step: Op): void {
  const ids = catalogue.ids();
  const target = (n: number) => ids[n % ids.length]!;
  const hours = (date: Date, h: number) => new Date(date.getTime() + h * 3_600_000);
  let changed: CatalogueEvent | undefined;
  switch (step.kind) {
    case 'create': {
      const copied = step.copyOf >= 0 && ids.length > 0 ? catalogue.rows.get(target(step.copyOf)) : undefined;
      const base = POOL[step.base]!;
      const content = copied
        ? {
            ...base,
            title: copied.title,
            country: copied.country,
            city: copied.city,
            start: hours(copied.start, step.shiftHours / 2),
            end: null,
          }
        : { ...base, start: hours(base.start, step.shiftHours), end: base.end && hours(base.end, step.shiftHours) };
      changed = catalogue.create(content, step.owner, clock.now);
      break;
    }
    case 'update':
      if (ids.length) changed = catalogue.write(target(step.target), { ...POOL[step.base]!, updatedAt: clock.now });
      break;
    case 'move':
      if (ids.length) {
        const row = catalogue.rows.get(target(step.target))!;
        changed = catalogue.write(row.id, {
          start: hours(row.start, step.hours),
          end: row.end && hours(row.end, step.hours),
        });
      }
      break;
    case 'cancel':
    case 'restore':
      if (ids.length)
        changed = catalogue.write(target(step.target), { lifecycle: step.kind === 'cancel' ? 'cancelled' : 'listed' });
      break;
    case 'unlist':
    case 'list':
      if (ids.length)
        changed = catalogue.write(target(step.target), { visibility: step.kind === 'list' ? 'public' : 'unlisted' });
      break;
    case 'stale':
      // A late notification: an older version of some event arrives again, and must change nothing.
      if (catalogue.history.length) index.apply(catalogue.history[step.target % catalogue.history.length]!);
      break;
    case 'time':
      clock.now = hours(clock.now, step.hours);
      break;
  }
  if (changed) index.apply(changed);
}

/**
 * Every query in every country, as the outputs see it: ids in order, scores, totals, reasons, links, understanding.
 */
function answers(index: CatalogueIndex, now: Date): unknown[] {
  const out: unknown[] = [];
  for (const country of COUNTRIES) {
    out.push({ country, shown: index.visibleIn(country).map((e) => [e.event.id, e.event.revision, e.alsoListedAt]) });
    for (const query of QUERIES) {
      const result = search(index, parseSearchParams({ ...query, country, limit: query.limit ?? '100' }), now);
      out.push({
        query,
        country,
        total: result.total,
        understood: describeQuery(result.restatement),
        events: result.events.map((r) => ({
          id: r.event.id,
          revision: r.event.revision,
          score: r.score,
          reasons: r.reasons,
          links: r.alsoListedAt,
        })),
      });
    }
  }
  return out;
}

describe('the live read index', () => {
  it('answers as an index built at once from the same events, after any sequence of changes', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 70 }), (ops) => {
        const clock = { now: START };
        const catalogue = new Catalogue();
        const live = new CatalogueIndex(() => clock.now);
        live.load([]);
        ops.forEach((step, i) => {
          run(catalogue, live, clock, step);
          // Asked now and then along the way, as a live index is: caches and scratch state must not leak.
          if (i % 17 === 16) answers(live, clock.now);
        });
        const fresh = new CatalogueIndex(() => clock.now);
        fresh.load(catalogue.rows.values());
        expect(answers(live, clock.now)).toEqual(answers(fresh, clock.now));
      }),
      { numRuns: 100 },
    );
  });

  it('keeps a write in one country from touching the versions of the others', () => {
    const clock = { now: START };
    const catalogue = new Catalogue();
    const index = new CatalogueIndex(() => clock.now);
    index.load([]);
    const before = Object.fromEntries(COUNTRIES.map((c) => [c, index.versionOf(c)]));
    const event = catalogue.create({ ...POOL[0]!, country: 'de', city: 'Berlin' }, 0, clock.now);
    index.apply(event);
    expect(index.versionOf('de')).toBeGreaterThan(before.de!);
    expect(index.versionOf('ch')).toBe(before.ch);
    expect(index.versionOf('at')).toBe(before.at);
    // RSVPs change crowds only: no country's answers go stale for them.
    const de = index.versionOf('de');
    const attendance = index.attendanceVersion;
    index.setAttendance([[event.id, 3]]);
    expect(index.versionOf('de')).toBe(de);
    expect(index.attendanceVersion).toBe(attendance + 1);
  });
});
