/**
 * What full text costs a distinct prompt, with the project's index and with MiniSearch under the same options (BM25+,
 * prefix from 4 letters, fuzzy from 5, the same boosts; test/search-index.test.ts holds the two to the same scores):
 * `npx tsx bench/full-text-cost.ts [size] [prompts]` (default 10000 and 2000). It ranks the bench's distinct and
 * many-constraint prompts once, notes every word the engine sends to full text, then times the same words against
 * both indexes of Germany's events, and the prompts' whole ranking, each the median of five rounds.
 */
import type MiniSearch from 'minisearch';
import { search } from '../src/query/engine.js';
import { CatalogueIndex } from '../src/query/index/catalogue-index.js';
import { FullTextIndex } from '../src/query/index/full-text.js';
import { parseSearchParams } from '../src/query/params.js';
import { MINISEARCH_SEARCH, miniSearchDocument, miniSearchTwin } from '../test/helpers/minisearch-twin.js';
import { demoCatalogue } from './demo-events.js';
import { MANY_CONSTRAINT_PROMPTS, PROMPTS } from './measure.js';
import { median } from './percentile.js';

const size = Number(process.argv[2] ?? 10_000);
const count = Number(process.argv[3] ?? 2_000);
const now = new Date('2026-01-05T09:00:00Z');
const events = demoCatalogue(size, now);
const index = new CatalogueIndex(() => now);
index.load(events);
const prompts = [...PROMPTS.slice(0, count / 2), ...MANY_CONSTRAINT_PROMPTS.slice(0, count / 2)].map((p) =>
  decodeURIComponent(p),
);
const rank = () => {
  for (const q of prompts) search(index, parseSearchParams({ q, country: 'de', limit: '20' }), now);
};

// The words each prompt sends to full text, as the engine asks them.
const asked: string[] = [];
const searchTerm = FullTextIndex.prototype.searchTerm;
FullTextIndex.prototype.searchTerm = function (this: FullTextIndex, term: string) {
  asked.push(term);
  return searchTerm.call(this, term);
};
rank();
FullTextIndex.prototype.searchTerm = searchTerm;

const german = events.filter((e) => e.country === 'de');
const documents = german.map((event, slot) => ({ slot, event }));
const theirs = miniSearchTwin();
theirs.addAll(german.map((e, slot) => miniSearchDocument(slot, e)));

const msPerPrompt = (work: () => number) => median(Array.from({ length: 5 }, () => work() / prompts.length));
const timed = (work: () => void) => {
  const started = performance.now();
  work();
  return performance.now() - started;
};
const whole = msPerPrompt(() => timed(rank));

// Each word once a round, on a fresh index built before the clock starts: the project's keeps its hits by word
// until a change, which a MiniSearch in its place would do the same way.
const words = [...new Set(asked)];
const searchesOnly = msPerPrompt(() => {
  const fresh = new FullTextIndex();
  fresh.load(documents);
  return timed(() => {
    for (const term of words) fresh.searchTerm(term);
  });
});
const mini = msPerPrompt(() =>
  timed(() => {
    for (const term of words) theirs.search(term, MINISEARCH_SEARCH);
  }),
);

// Exactness: MiniSearch kept in step by removes and adds, against one built at once from the same documents.
const held = german.map((e, slot) => miniSearchDocument(slot, e));
for (let id = 0; id < held.length; id += 3) {
  theirs.remove(held[id]!);
  held[id] = miniSearchDocument(id, { ...german[id]!, title: `${german[id]!.title} Night` });
  theirs.add(held[id]!);
}
const built = miniSearchTwin();
built.addAll(held);
// Scores, not MiniSearch's own order: the engine breaks ties itself (score, start, id), so what matters is whether
// two events that score alike in an index built at once still score alike.
const scores = (engine: MiniSearch, term: string) =>
  new Map(engine.search(term, MINISEARCH_SEARCH).map((r) => [r.id as number, r.score]));
const differs = (term: string) => {
  const live = scores(theirs, term);
  const fresh = scores(built, term);
  return live.size !== fresh.size || [...fresh].some(([id, score]) => live.get(id) !== score);
};
// The prompts' words and those of the first 200 titles, as people name an event or its organizer.
const probes = [...new Set([...words, ...german.slice(0, 200).flatMap((e) => e.title.toLowerCase().split(/\s+/))])];
const reordered = probes.filter(differs).length;
console.log(
  `${size} events (${german.length} in Germany), ${prompts.length} prompts, ${asked.length} words to full text\n` +
    `  a prompt's whole ranking: ${whole.toFixed(3)} ms\n` +
    `  its full-text words, the project's index: ${searchesOnly.toFixed(3)} ms\n` +
    `  the same words, MiniSearch: ${mini.toFixed(3)} ms\n` +
    `  a prompt with MiniSearch would cost ${(whole - searchesOnly + mini).toFixed(3)} ms: ` +
    `${(((whole - searchesOnly + mini) / whole - 1) * 100).toFixed(1)} % more\n` +
    `  MiniSearch after ${Math.ceil(held.length / 3)} removes and adds: ${reordered} of ${probes.length} words score some event otherwise than one built at once`,
);
