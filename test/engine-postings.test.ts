import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue, readQueries } from '../scripts/eval-relevance.js';
import { foldText } from '../src/catalogue/lexicon.js';
import { scoreByScan, search } from '../src/query/engine.js';
import { CatalogueIndex } from '../src/query/index/catalogue-index.js';
import { hasPhrase, plain, wordsOf } from '../src/query/index/names.js';
import { parseSearchParams } from '../src/query/params.js';
import { demoCatalogueEvents } from './helpers/demo-events.js';

/**
 * The engine scores prompts over posting lists (term at a time) for speed; `scoreByScan` scores every event one by
 * one with the same rules. Whatever the query, both must return the same events, scores (whole points), order and
 * totals.
 */
function expectSameAsScan(index: CatalogueIndex, raw: Record<string, string>, now: Date): void {
  const params = parseSearchParams(raw);
  const result = search(index, params, now);
  const scan = scoreByScan(index, params, now);
  const label = JSON.stringify(raw);
  if (!params.q) return;
  expect(result.total, label).toBe(scan.matches.length);
  expect(
    result.events.map((r) => ({ id: r.event.id, score: r.score })),
    label,
  ).toEqual(scan.matches.slice(0, params.limit));
  // The near misses found through candidates are those a look at every event finds.
  expect(
    (result.alternatives ?? []).map((a) => ({ id: a.event.id, score: a.score, missed: a.constraint })),
    label,
  ).toEqual(scan.alternatives);
  // An empty answer says how many dropping each constraint would find: as many as a look at every event finds.
  expect(
    (result.widen ?? []).map((w) => ({ constraint: w.constraint, total: w.total })),
    label,
  ).toEqual(scan.widen);
  // Scores are whole points (see POINTS_PER_WEIGHT): sums that agree in any order.
  for (const r of result.events) expect(Number.isInteger(r.score), label).toBe(true);
}

/**
 * The full scans are long synchronous stretches: let the worker's event loop turn between queries, or vitest's own
 * messages to its main process wait behind them (and time out on a busy machine).
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('ranking over posting lists agrees with a full scan', () => {
  let catalogue: Awaited<ReturnType<typeof buildCatalogue>>;
  beforeAll(async () => {
    catalogue = await buildCatalogue();
  }, 120_000);
  afterAll(async () => {
    await catalogue?.close();
  });

  it('for every labelled relevance query, in each country', async () => {
    const now = catalogue.ctx.now();
    // The catalogue as the service's read index holds it, in an index the reference scan can read.
    const index = new CatalogueIndex(() => now);
    index.load(catalogue.all);
    for (const q of readQueries()) {
      await yieldToEventLoop();
      expectSameAsScan(index, { ...(q.params ?? {}), q: q.q, limit: '100' }, now);
      for (const country of q.params?.city ? [] : ['ch', 'de', 'at']) {
        expectSameAsScan(index, { ...(q.params ?? {}), q: q.q, country, limit: '7' }, now);
      }
    }
  });

  it('on a synthetic catalogue of 4,000 events, for prompts touching every facet and filter', async () => {
    const now = new Date('2026-01-05T09:00:00Z');
    const events = demoCatalogueEvents(4000, now);
    // Long events (a month-long exhibition) and a past one still in the index, to exercise the date windows.
    events[0] = { ...events[0]!, end: new Date(events[0]!.start.getTime() + 40 * 86_400_000) };
    events[1] = {
      ...events[1]!,
      start: new Date(now.getTime() - 20 * 86_400_000),
      end: new Date(now.getTime() + 86_400_000),
    };
    const index = new CatalogueIndex(() => now);
    index.load(events);
    const prompts = [
      'AI meetup Berlin free',
      'Kubernetes workshop near Hamburg',
      'Rust night München',
      'KI Meetup Wien nächste Woche',
      'conférences sécurité Genève en février',
      'startup founders Zürich this weekend',
      'online python workshop',
      'hybrid data conference',
      'paid product summit in Köln',
      'UX Stammtisch',
      'GenAI Meetup Berlin',
      'Demo Venue 3',
      'synthetic demo event about security',
      'events for juniors in Graz',
      'next 30 days',
      'Cloud Native hackathon in Basel im März',
      'Frontend breakfast',
      // Technologies, their fields and neighbours; the person's own place, alone and beside other wishes.
      'Java conference',
      'Postgres Berlin',
      'Svelte',
      'Elixir',
      'Docker meetup',
      'I live in Zürich',
      'wohne in Berlin, suche ein Rust Meetup',
      "je cherche un hackathon, j'habite à Genève",
      "I'm based in Wien and like Kotlin",
      // Nothing but filler and a country: the country's listing.
      'tech events in Austria',
      "what's on?",
      'Go',
    ];
    const filters: Record<string, string>[] = [
      {},
      { format: 'in_person' },
      { format: 'online', limit: '5' },
      { topics: 'ai-ml,security' },
      { city: 'Berlin', near: '1', country: 'de' },
      { city: 'Zürich', country: 'ch' },
      { who: 'founders' },
      { from: '2026-02-01', to: '2026-03-15' },
      { seniority: 'junior' },
    ];
    // A prompt asking nothing of the facets lists the country's events, as no prompt does.
    const listing = search(index, parseSearchParams({ q: "what's on?", country: 'de', limit: '5' }), now);
    expect(listing.total).toBe(search(index, parseSearchParams({ country: 'de', limit: '5' }), now).total);
    expect(listing.total).toBeGreaterThan(0);
    for (const q of prompts) {
      for (const extra of filters) {
        await yieldToEventLoop();
        for (const country of ['de', 'ch', 'at']) expectSameAsScan(index, { q, country, limit: '50', ...extra }, now);
      }
    }
  });
});

/** Parts of prompts as people write them, in three languages: any mix, each part often left out. */
const PROMPT_PARTS = [
  ['Kubernetes', 'LLM', 'AI', 'Rust', 'Python', 'Security', 'React', 'Data', 'UX', 'KI', 'DevOps', 'Java', 'Startup'],
  ['meetup', 'workshop', 'conference', 'hackathon', 'Stammtisch', 'Konferenz', 'atelier', 'night'],
  ['in Berlin', 'near Hamburg', 'in München', 'in Köln', 'in Zürich', 'à Genève', 'in Wien', 'in Graz', 'in Leipzig'],
  ['next week', 'next month', 'in February', 'nächste Woche', 'im März', 'la semaine prochaine', 'this weekend'],
  ['free', 'for beginners', 'online', 'for founders', 'kostenlos', 'in person', 'gratuit', 'pour débutants', 'hybrid'],
];

describe('ranking from the most selective constraints agrees with a full scan', () => {
  it('on random catalogues, changed after loading, for random prompts of several constraints', async () => {
    const now = new Date('2026-01-05T09:00:00Z');
    const prompt = fc
      .tuple(...PROMPT_PARTS.map((words) => fc.option(fc.constantFrom(...words), { freq: 3 })))
      .map((parts) => parts.filter((p) => p !== null).join(' '));
    const query = fc.record({
      q: prompt,
      country: fc.constantFrom('ch', 'de', 'at', 'all'),
      limit: fc.constantFrom('3', '10', '40'),
      extra: fc.constantFrom<Record<string, string>>(
        {},
        { format: 'in_person' },
        { seniority: 'junior' },
        { who: 'founders' },
      ),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 50, max: 1500 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(0, 10, 20)), { maxLength: 60 }),
        fc.array(query, { minLength: 1, maxLength: 8 }),
        async (seed, size, changes, queries) => {
          await yieldToEventLoop();
          const events = demoCatalogueEvents(size, now, { seed });
          const index = new CatalogueIndex(() => now);
          index.load(events);
          // Events take another's content (another place, subject, kind, date): slots are freed and reused. Some
          // last 10 or 20 days: date windows then reach back further in start order, or hold long events apart.
          for (const [k, [i, j, days]] of changes.entries()) {
            const into = events[i % size]!;
            const from = events[j % size]!;
            const end = days > 0 ? new Date(from.start.getTime() + days * 86_400_000) : from.end;
            index.apply({ ...from, end, id: into.id, externalId: into.externalId, revision: into.revision + k + 1 });
          }
          for (const { q, country, limit, extra } of queries)
            expectSameAsScan(index, { q, country, limit, ...extra }, now);
        },
      ),
      {
        numRuns: 30,
        examples: [
          // An event lasting 20 days, a near miss of a place and a month only as one of the long events.
          [97157, 50, [[0, 14, 20]], [{ q: 'in Berlin im März', country: 'ch', limit: '3', extra: {} }]],
          // Matches and near misses of two constraints as near as any (another kind, another week): both are sought.
          [15, 928, [], [{ q: 'Startup meetup next week', country: 'ch', limit: '10', extra: {} }]],
        ],
      },
    );
  }, 300_000);
});

describe('phrase matches over word lists', () => {
  it('find a phrase in a name exactly when its plain form holds the plain phrase', () => {
    const names = [
      'Rust Meetup Zürich #12',
      'node.js / TypeScript night — Berlin',
      'AI-Meetup: Berlin (free)',
      'Meetup AI Berlin',
      'GenAI Meetup Berlin',
      'Berlin AI Meetup Berlin AI',
      '',
      '   ',
      'C++ User Group Wien',
      'Data & AI Summit 2026',
    ];
    const phrases = [
      'ai meetup',
      'meetup berlin',
      'ai meetup berlin',
      'js typescript',
      'c user group',
      'berlin ai',
      'ai summit 2026',
      'genai meetup',
    ];
    let found = 0;
    for (const name of names) {
      const folded = foldText(name);
      const words = wordsOf(folded);
      for (const phrase of phrases) {
        const expected = plain(folded).includes(plain(phrase));
        expect(hasPhrase(words, plain(phrase).trim().split(' ')), `${name} / ${phrase}`).toBe(expected);
        if (expected) found++;
      }
    }
    expect(found).toBeGreaterThan(5);
  });
});
