/**
 * The plain BM25 baseline printed beside the engine, so the gain of understanding prompts is visible (issue 22).
 */
import MiniSearch from 'minisearch';
import { type Scope, type SearchParams, toQueryString } from '../../src/query/params.js';
import type { ReadIndex } from '../../src/query/read-index.js';

interface BaselineDocument {
  id: string;
  title: string;
  description: string;
}

/**
 * A ranker for the catalogue as it is at `now`: event ids, best first, for a prompt — MiniSearch with its default
 * options (its tokenizer, lower-casing, BM25+ scoring, any word of the prompt, no prefix or fuzzy matching) over the
 * title and description of exactly the events the engine may return for the same query (the country it searched,
 * upcoming at `now`, the same hard filters from the parameters), ranked for the raw prompt. Events matching no word
 * of the prompt are not returned.
 */
export function bm25Baseline(index: ReadIndex, now: Date): (params: SearchParams, country: Scope) => string[] {
  // Most prompts share a candidate set (a country, no filters): one index per set, as each would build the same.
  const indexes = new Map<string, MiniSearch<BaselineDocument>>();
  return (params, country) => {
    const candidates = { ...params, q: '', country, countryExplicit: true, limit: Number.MAX_SAFE_INTEGER };
    const key = toQueryString(candidates);
    let bm25 = indexes.get(key);
    if (!bm25) {
      bm25 = new MiniSearch<BaselineDocument>({ fields: ['title', 'description'] });
      // The engine's own listing without a prompt is its candidate set: every accepted event, in start order.
      bm25.addAll(
        index.search(candidates, now).events.map(({ event }) => ({
          id: event.id,
          title: event.title,
          description: event.description ?? '',
        })),
      );
      indexes.set(key, bm25);
    }
    return bm25.search(params.q).map((hit) => String(hit.id));
  };
}
