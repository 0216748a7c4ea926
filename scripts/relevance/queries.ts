/**
 * The labelled prompts of the relevance set (test/fixtures/relevance-queries.json): their shape, and the checks that
 * the set as a whole still probes what it was written for (size, failure classes, conversational and non-English
 * share). Judgements are checked against the catalogue in eval-relevance.ts, which has it.
 */
import { readFileSync } from 'node:fs';
import type { Constraints } from './constraints.js';

const QUERIES_FILE = new URL('../../test/fixtures/relevance-queries.json', import.meta.url);

/**
 * The weakness a prompt was written to probe (issue 22): `specific` — a specific technology must not be widened to its
 * broad topic ("Java Konferenz", "Postgres Tag"); `place` — a named place must not lose to the topic ("KI Hamburg");
 * `filler` — conversational filler is no search word ("gibt es …", "y a-t-il …"); `own-place` — where the person is
 * (lives, is based, is visiting) is a preference ("… living in Munich"); `general` — everything else, including the
 * prompts written before these classes existed.
 */
export const QUERY_CLASSES = [
  'specific',
  'place',
  'filler',
  'own-place',
  'general',
  'dates',
  'places',
  'kinds',
  'wishes',
  'none',
] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number];
export const FAILURE_CLASSES: readonly QueryClass[] = ['specific', 'place', 'filler', 'own-place'];
/**
 * The classes of the prompts with explicit constraints (issue 32: answers keep their word), by what they probe:
 * `dates` — a time window restated must hold ("next week", "im März", "vom 17. bis 21. März"); `places` — a place
 * or country named, and the subject, audience, format or price beside it; `kinds` — meetups, conferences, workshops,
 * hackathons; `wishes` — a wish is no search word ("ideally in English", "am liebsten auf Englisch"), calls for
 * papers in every language, filler around constraints; `none` — nothing meets every constraint, and the answer must
 * say so rather than list what does not.
 */
export const CONSTRAINT_CLASSES: readonly QueryClass[] = ['dates', 'places', 'kinds', 'wishes', 'none'];
export const LANGUAGES = ['en', 'de', 'fr', 'it'] as const;

export interface LabelledQuery {
  q: string;
  /** Language of `q` (en, de, fr, it), for the report. */
  lang: string;
  class: QueryClass;
  /** A whole sentence or question, or a request phrase ("I'm looking for", "gibt es", "je cherche", "sto cercando"). */
  conversational?: boolean;
  /** The MCP tool the prompt is meant for; `best_next_event` builds q from the wishes and asks for 3 results. */
  tool?: 'best_next_event';
  /** Other query parameters, as strings, exactly as in a URL (country, city, format, who, …). */
  params?: Record<string, string>;
  /** Judged events (title, or id where titles repeat): 2 = exactly what was asked, 1 = acceptable. */
  relevant: Record<string, 1 | 2>;
  expect?: { city?: string; topics?: string[]; window?: { from: string; to: string } };
  /**
   * What the prompt constrains, as a judge reads it (see constraints.ts): every event listed must meet all of it. The
   * prompts written for issue 32 state it; the older ones do not.
   */
  constraints?: Constraints;
  /** A wish that orders without narrowing: the language the person would rather the event be held in. */
  prefer?: { language: string };
  /** Words of `q` that carry no search meaning: `understood` must never list them as matched words. */
  mustNotMatch?: string[];
  note?: string;
}

/** What the set must hold to find the weak spots at all (issue 22). */
export const SET_REQUIREMENTS = {
  minQueries: 200,
  /** Prompts with explicit constraints (issue 32), in every language and of every constraint class. */
  minConstrained: 60,
  minConstrainedPerLanguage: 10,
  minPerConstraintClass: 8,
  minPerFailureClass: 15,
  minConversationalShare: 1 / 3,
  minNonEnglishShare: 1 / 3,
} as const;

export function readQueries(): LabelledQuery[] {
  const queries = JSON.parse(readFileSync(QUERIES_FILE, 'utf8')) as LabelledQuery[];
  for (const q of queries) {
    const problem = shapeProblem(q);
    if (problem) throw new Error(`relevance-queries.json, query "${q.q}": ${problem}`);
  }
  return queries;
}

function shapeProblem(q: LabelledQuery): string | undefined {
  if (typeof q.q !== 'string' || !q.q.trim()) return 'q must be a non-empty string';
  if (!(LANGUAGES as readonly string[]).includes(q.lang)) return `lang must be one of ${LANGUAGES.join(', ')}`;
  if (!(QUERY_CLASSES as readonly string[]).includes(q.class))
    return `class must be one of ${QUERY_CLASSES.join(', ')}`;
  if (q.tool !== undefined && q.tool !== 'best_next_event') return 'tool must be best_next_event';
  if (Object.values(q.relevant ?? {}).some((g) => g !== 1 && g !== 2)) return 'grades must be 1 or 2';
  // The filler test runs over every conversational prompt: each must say which of its words are filler.
  if (q.conversational && !q.mustNotMatch?.length) return 'a conversational prompt needs mustNotMatch';
  const constrained = (CONSTRAINT_CLASSES as readonly string[]).includes(q.class);
  if (constrained !== (q.constraints !== undefined)) return 'the constraint classes, and only they, state constraints';
  if (q.class === 'none' && Object.keys(q.relevant).length > 0) return 'a prompt of class none has nothing relevant';
  for (const word of q.mustNotMatch ?? []) {
    if (!q.q.toLowerCase().includes(word.toLowerCase())) return `mustNotMatch "${word}" is not a word of q`;
  }
  return undefined;
}

export interface SetStats {
  total: number;
  byClass: Record<QueryClass, number>;
  byLanguage: Record<string, number>;
  conversational: number;
  nonEnglish: number;
  constrained: number;
  constrainedByLanguage: Record<string, number>;
  /** Of the prompts without constraints (issue 22's set). */
  olderConversational: number;
  olderNonEnglish: number;
  emptyJudgements: number;
  tool: number;
}

export function setStats(queries: readonly LabelledQuery[]): SetStats {
  const byClass = Object.fromEntries(QUERY_CLASSES.map((c) => [c, 0])) as Record<QueryClass, number>;
  const byLanguage: Record<string, number> = {};
  const constrainedByLanguage: Record<string, number> = Object.fromEntries(LANGUAGES.map((l) => [l, 0]));
  for (const q of queries) {
    byClass[q.class]++;
    byLanguage[q.lang] = (byLanguage[q.lang] ?? 0) + 1;
    if (q.constraints) constrainedByLanguage[q.lang] = (constrainedByLanguage[q.lang] ?? 0) + 1;
  }
  return {
    total: queries.length,
    byClass,
    byLanguage,
    conversational: queries.filter((q) => q.conversational).length,
    nonEnglish: queries.filter((q) => q.lang !== 'en').length,
    constrained: queries.filter((q) => q.constraints).length,
    constrainedByLanguage,
    olderConversational: queries.filter((q) => !q.constraints && q.conversational).length,
    olderNonEnglish: queries.filter((q) => !q.constraints && q.lang !== 'en').length,
    emptyJudgements: queries.filter((q) => Object.keys(q.relevant).length === 0).length,
    tool: queries.filter((q) => q.tool).length,
  };
}

/** Where the set falls short of SET_REQUIREMENTS; empty when it meets them. */
export function setShortfalls(stats: SetStats): string[] {
  const r = SET_REQUIREMENTS;
  const out: string[] = [];
  if (stats.total < r.minQueries) out.push(`${stats.total} queries, want ≥ ${r.minQueries}`);
  for (const c of FAILURE_CLASSES) {
    if (stats.byClass[c] < r.minPerFailureClass)
      out.push(`${stats.byClass[c]} ${c} queries, want ≥ ${r.minPerFailureClass}`);
  }
  if (stats.constrained < r.minConstrained)
    out.push(`${stats.constrained} prompts with constraints, want ≥ ${r.minConstrained}`);
  for (const [lang, n] of Object.entries(stats.constrainedByLanguage)) {
    if (n < r.minConstrainedPerLanguage)
      out.push(`${n} ${lang} prompts with constraints, want ≥ ${r.minConstrainedPerLanguage}`);
  }
  for (const c of CONSTRAINT_CLASSES) {
    if (stats.byClass[c] < r.minPerConstraintClass)
      out.push(`${stats.byClass[c]} ${c} prompts, want ≥ ${r.minPerConstraintClass}`);
  }
  // The shares are issue 22's, of the prompts written for it (those without constraints).
  const older = stats.total - stats.constrained;
  if (stats.olderConversational < older * r.minConversationalShare)
    out.push(`${stats.olderConversational} conversational of ${older}, want ≥ a third`);
  if (stats.olderNonEnglish < older * r.minNonEnglishShare)
    out.push(`${stats.olderNonEnglish} German/French/Italian of ${older}, want ≥ a third`);
  return out;
}
