import { COUNTRIES } from '../places/countries.js';
import type { CatalogueIndex } from './index/catalogue-index.js';
import { byTotal, type Widening } from './near-misses.js';
import type { SearchParams } from './params.js';
import { type Plan, plan, rankIn } from './plan.js';
import type { ShardRanking } from './rank-shard.js';

/**
 * Widening to other countries, with how many and the prompt to ask there. With no place named, the country searched
 * is a constraint and the others' matches are ranked already (near-misses.ts, `elsewhere`): an answer with fewer
 * matches than THIN_ANSWER names them. With a place named in the prompt, an empty answer asks the prompt without it
 * in each other country ("DevOps Wien" → "DevOps" in Germany), which the answer then depends on too.
 */

/** Fewer matches than this make an answer thin: it offers the other countries holding matches. */
export const THIN_ANSWER = 5;

/** The prompt without the words at `span` and a place word just before them ("DevOps in Wien" → "DevOps"). */
export function withoutSpan(q: string, span: readonly [number, number]): string {
  const before = q
    .slice(0, span[0])
    .replace(/(?:^|\s)(?:in|im|en|à|a|au|aux|nach|near|bei|nahe|vicino|près de)\s*$/iu, '');
  return `${before} ${q.slice(span[1])}`.replace(/\s+/g, ' ').trim();
}

/**
 * The other countries holding matches of a thin answer, most first. `elsewhere`: the other countries' rankings when
 * the country is a constraint (their matches meet everything else). The rankings made here join `read`: the answer
 * depends on those countries too.
 */
export function otherCountries(
  index: CatalogueIndex,
  p: Plan,
  params: SearchParams,
  now: Date,
  total: number,
  elsewhere: readonly ShardRanking[],
  byScan: boolean,
  read: ShardRanking[] = [],
): Widening[] {
  const q = p.searched[0]!.q;
  const u = p.understanding;
  const out: Widening[] = [];
  if (q.country !== undefined) {
    // The country said in the prompt is left out of it, else it would decide over the country followed.
    const asked = u.countrySpan ? withoutSpan(params.q, u.countrySpan) : params.q;
    for (const r of elsewhere) {
      if (r.matches.length === 0) continue;
      const follow = { country: r.shard.country, q: asked };
      out.push({ constraint: 'country', total: r.matches.length, follow });
    }
  } else if (u.place?.span && !params.city && total === 0) {
    const asked = withoutSpan(params.q, u.place.span);
    for (const country of COUNTRIES.filter((c) => c !== u.place!.place.country)) {
      const total = matchesIn(index, { ...params, q: asked, country, countryExplicit: true }, now, byScan, read);
      if (total > 0) out.push({ constraint: 'place', total, follow: { country, q: asked } });
    }
  }
  return out.sort(byTotal);
}

/** How many events a query matches, when it still asks something (a prompt left with nothing would list all). */
function matchesIn(
  index: CatalogueIndex,
  params: SearchParams,
  now: Date,
  byScan: boolean,
  read: ShardRanking[],
): number {
  const other = plan(index, params, now);
  if (other.order !== 'prompt' || other.asked.mode === 'everything') return 0;
  let total = 0;
  try {
    for (const sq of other.searched) {
      const ranking = rankIn(other, sq, false, byScan);
      // The answer reads these rankings' parts, never their scores (given back below).
      read.push(ranking);
      total += ranking.matches.length;
    }
  } finally {
    other.release();
  }
  return total;
}

/** An empty answer's widening with the other countries' counts each on its own, or a thin answer's other countries. */
export function widening(total: number, dropping: readonly Widening[] | undefined, others: readonly Widening[]) {
  if (total > 0) return others.length > 0 ? [...others] : undefined;
  const perCountry = others.some((w) => w.constraint === 'country');
  return [...(dropping ?? []).filter((w) => !perCountry || w.constraint !== 'country'), ...others].sort(byTotal);
}
