import { foldText, termKey } from '../../catalogue/lexicon.js';
import {
  technologyAndParts,
  technologyFinder,
  topicsOfTechnologies,
  widerTechnologies,
} from '../../catalogue/lexicon-technologies.js';
import type { TopicSlug } from '../../catalogue/taxonomy.js';
import type { Country } from '../../places/countries.js';
import type { CountryShard } from '../index/country-shard.js';
import { plain, withoutYears } from '../index/names.js';
import type { SharedValues } from '../index/shared-values.js';
import type { Understanding } from '../prompt/understand.js';
import { NONE } from './evidence.js';
import type { ImpliedFields, PreparedQuery, PreparedTechnology } from './facet.js';

// ---------------------------------------------------------------- preparing a query

/** What a technology word asks, but for its hits in a shard: the same in every shard. */
type TechnologyAsked = Omit<PreparedTechnology, 'hits'>;

function describeTechnology(
  term: string,
  typed: string,
  ids: readonly string[],
  shared: SharedValues,
): TechnologyAsked {
  const own = new Set(ids);
  const parts = new Set<string>();
  for (const id of ids) for (const part of technologyAndParts(id)) if (!own.has(part)) parts.add(part);
  const wider = new Set<string>();
  for (const id of ids) for (const w of widerTechnologies(id)) if (!own.has(w) && !parts.has(w)) wider.add(w);
  const topics = [...topicsOfTechnologies([...own, ...parts, ...wider])].filter((t) => t !== 'general');
  const folded = foldText(typed).trim();
  const word = /^[\p{L}\p{N}]+$/u.test(folded) ? folded : '';
  return {
    term,
    typedKey: termKey(term),
    word,
    ids: own,
    parts,
    wider,
    topics,
    // Keyed by the ids joined with a character no id holds: the id of a term of its own may hold a space
    // ("term:crypto valley"), and split at it would look for "crypto" alone.
    description: shared.finder([...own, ...parts].sort().join('\n'), (key) => technologyFinder(key.split('\n'))),
    // Everything the evidence depends on: the term, the words as typed (its full-text hits), the technologies.
    memo: `tech|${term}|${typed}|${[...own].join(',')}`,
  };
}

function impliedFields(slugs: TopicSlug[], technologies: readonly TechnologyAsked[], general: boolean): ImpliedFields {
  const related = new Set(technologies.flatMap((t) => [...t.ids, ...t.parts, ...t.wider]));
  return { slugs, related, general, memo: `field|${slugs.join(',')}|${[...related].sort().join(',')}|${general}` };
}

/**
 * What a query asks of the facets in each shard (see PreparedQuery): what is the same in every shard is worked out
 * once, the returned function adds what one shard's full text finds. `country` is the country every event must be
 * in, when the query names one and no place.
 */
/** The prompt's words that may be an event's title: two or more, years aside ("IT-Tage 2026" → it, tage). */
export function titleWordsOf(u: Understanding): readonly string[] {
  const words = withoutYears(plain(foldText(u.phrase)).trim().split(' '));
  return words.length >= 2 ? words : NONE;
}

export function prepareQuery(
  u: Understanding,
  zone: string,
  now: number,
  country: Country | undefined,
  shared: SharedValues,
): (shard: CountryShard) => PreparedQuery {
  const broad = new Set(u.topics.filter((t) => !t.specific).map((t) => t.slug));
  const fields = [...broad].map((slug) => ({
    slug,
    term: u.topics.find((t) => t.slug === slug)!.term,
    memo: `title|${slug}`,
  }));
  const described = u.technologies.map((t) => describeTechnology(t.term, t.typed, t.ids, shared));
  // The one-item lists the facets ask (evidence.ts, `only`), made once for the query.
  const singles = new Map<unknown, readonly unknown[]>();
  const impliedSlugs = [...new Set(u.topics.filter((t) => t.specific && !broad.has(t.slug)).map((t) => t.slug))];
  const general = u.topics.length > 0;
  const implied = impliedSlugs.length > 0 || general ? impliedFields(impliedSlugs, described, general) : undefined;
  const phraseWords = plain(foldText(u.phrase)).trim().split(' ');
  const titleWords = titleWordsOf(u);
  return (shard) => {
    const technologies = described.map(
      (t, i): PreparedTechnology => ({ ...t, hits: shard.text.slotsMatching(u.technologies[i]!.typed) }),
    );
    const text = u.terms.map((term) => ({ term, hits: shard.text.searchTerm(term) }));
    let maxText = 0;
    for (const { hits } of text) maxText = Math.max(maxText, hits.maxScore);
    return {
      u,
      country,
      fields,
      technologies,
      implied,
      text,
      maxText: maxText || 1,
      phraseWords: phraseWords.length >= 2 ? phraseWords : NONE,
      titleWords,
      zone,
      now,
      singles,
    };
  };
}
