import { sayPart, sayRestatement } from '../../i18n/restate.js';
import type { Translator } from '../../i18n/translator.js';
import type { ConstraintName, SearchResult } from '../../query/read-index.js';

/**
 * How the page read a search, in the reader's language: the engine's restatement (query/restate.ts) said as the
 * answers say it in English ("AI & ML meetups in or near Zürich, next week (3–9 Mar 2025)"), or, for a search that
 * asks nothing beyond the country, its upcoming events.
 */
export function understoodText(result: SearchResult, t: Translator, now: Date): string {
  return isPlainListing(result)
    ? t.t('results.upcoming', { country: result.country })
    : t.t('results.lookingFor', { query: sayRestatement(result.restatement, t, now) });
}

/** A constraint of the search as the page says it (for "without …"), or the engine's name when it has no part. */
export function constraintText(result: SearchResult, name: ConstraintName, t: Translator, now: Date): string {
  const part = result.restatement.parts.find((p) => p.say === name);
  return part ? sayPart(part, t, now) : name;
}

/** Whether a search asks for anything beyond the country's upcoming events. */
export function isPlainListing(result: SearchResult): boolean {
  const { params: p } = result;
  return (
    !p.q &&
    p.topics.length === 0 &&
    p.seniority.length === 0 &&
    !p.city &&
    !p.format &&
    !p.org &&
    !p.who &&
    !p.from &&
    !p.to &&
    !p.cfp &&
    Object.keys(p.plain).length === 0
  );
}
