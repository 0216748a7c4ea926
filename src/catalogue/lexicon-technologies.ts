/** What a prompt's specific terms name, compiled from the table in technologies.ts (read there what it means). */

import { foldText, LEXICON_TERMS, termKey, termsOf } from './lexicon.js';
import { TOPIC_NAMES, TOPIC_TERMS } from './lexicon-terms.js';
import type { TopicSlug } from './taxonomy.js';
import { FIELD_SERIES, TECHNOLOGIES } from './technologies.js';

// ---------------------------------------------------------------- compiled once

/** The values of each key, each once, from (key, value) pairs: the tables below, compiled when the module loads. */
function grouped<V>(pairs: Iterable<[key: string, value: V]>): ReadonlyMap<string, readonly V[]> {
  const out = new Map<string, V[]>();
  for (const [key, value] of pairs) {
    const values = out.get(key) ?? [];
    if (!values.includes(value)) values.push(value);
    out.set(key, values);
  }
  return out;
}

/** Topics of each topic term, by term key. */
const TERM_TOPICS = grouped(
  (Object.entries(TOPIC_TERMS) as [TopicSlug, readonly string[]][]).flatMap(([slug, groups]) =>
    termsOf(groups).map((term): [string, TopicSlug] => [termKey(term), slug]),
  ),
);

/** Technologies each term names, by term key. */
const BY_TERM = grouped(
  Object.entries(TECHNOLOGIES).flatMap(([id, t]) =>
    termsOf(t.terms).map((term): [string, string] => [termKey(term), id]),
  ),
);

/** Fields each term names as a whole (a name or a series of the field), by term key. */
const FIELD_OF = grouped(
  ([...Object.entries(TOPIC_NAMES), ...Object.entries(FIELD_SERIES)] as [TopicSlug, string][]).flatMap(
    ([slug, words]) => termsOf(words).map((term): [string, TopicSlug] => [termKey(term), slug]),
  ),
);

/** The id of a specific term no technology lists: a technology of its own. */
const ownId = (key: string) => `term:${key}`;

/**
 * The technologies a topic term (its canonical spelling, as a lexicon hit's `term`) names, and the fields it names
 * as a whole (their slugs); a specific term no technology lists names itself.
 */
export function technologiesNamed(term: string): readonly string[] {
  // Looked up by the term as given, not folded: ranking asks this for every title term of every candidate.
  return NAMED.get(term) ?? namedBy(term);
}

function namedBy(term: string): readonly string[] {
  const key = termKey(term);
  const listed = BY_TERM.get(key) ?? [];
  const fields = FIELD_OF.get(key) ?? [];
  const names = fields.some((slug) => isFieldName(slug, key));
  return [...listed, ...fields, ...(listed.length === 0 && !names ? [ownId(key)] : [])];
}

/** What each of the lexicon's terms names, compiled when the module loads (another term's is worked out each time). */
const NAMED: ReadonlyMap<string, readonly string[]> = new Map(LEXICON_TERMS.map((term) => [term, namedBy(term)]));

function isFieldName(slug: TopicSlug, key: string): boolean {
  return termsOf(TOPIC_NAMES[slug as Exclude<TopicSlug, 'general'>] ?? '').some((n) => termKey(n) === key);
}

/** The topics of a technology: those of its terms (a field's own id is its slug). */
function topicsOf(id: string): TopicSlug[] {
  const t = TECHNOLOGIES[id];
  if (!t) {
    if (id.startsWith('term:')) return [...(TERM_TOPICS.get(id.slice(5)) ?? [])];
    return [id as TopicSlug];
  }
  const out = new Set<TopicSlug>();
  for (const term of termsOf(t.terms)) for (const slug of TERM_TOPICS.get(termKey(term)) ?? []) out.add(slug);
  return [...out];
}

/** Technologies directly within each technology (reverse of `within`). */
const PARTS = grouped(
  Object.entries(TECHNOLOGIES).flatMap(([id, t]) => (t.within ?? []).map((wider): [string, string] => [wider, id])),
);

/** A technology and everything within it, transitively. */
export function technologyAndParts(id: string): ReadonlySet<string> {
  const out = new Set<string>([id]);
  const todo = [id];
  while (todo.length > 0) {
    for (const part of PARTS.get(todo.pop()!) ?? []) {
      if (!out.has(part)) {
        out.add(part);
        todo.push(part);
      }
    }
  }
  return out;
}

/** What a technology is part of, transitively, up to the fields of every technology on the way. */
export function widerTechnologies(id: string): ReadonlySet<string> {
  const out = new Set<string>();
  const todo = [id];
  while (todo.length > 0) {
    const next = todo.pop()!;
    for (const slug of topicsOf(next)) if (slug !== next) out.add(slug);
    for (const wider of TECHNOLOGIES[next]?.within ?? []) {
      if (!out.has(wider)) {
        out.add(wider);
        todo.push(wider);
      }
    }
  }
  out.delete(id);
  return out;
}

/** The topics of a set of technologies (fields are their own topic). */
export function topicsOfTechnologies(ids: Iterable<string>): Set<TopicSlug> {
  const out = new Set<TopicSlug>();
  for (const id of ids) for (const slug of topicsOf(id)) out.add(slug);
  return out;
}

/** Terms of the table that the lexicon does not know as topic terms (for a test: each must be one). */
export function unknownTechnologyTerms(): string[] {
  const all = [...Object.values(TECHNOLOGIES).map((t) => t.terms), ...Object.values(FIELD_SERIES)];
  return all.flatMap((group) => termsOf(group)).filter((term) => !TERM_TOPICS.has(termKey(term)));
}

/** The spellings of a set of technologies' terms (for finding them in free text), `~` terms marked as guarded. */
export function technologyTerms(ids: Iterable<string>): { term: string; guarded: boolean }[] {
  const out: { term: string; guarded: boolean }[] = [];
  const guardedKeys = GUARDED;
  for (const id of ids) {
    const t = TECHNOLOGIES[id];
    const terms = t ? termsOf(t.terms) : id.startsWith('term:') ? [id.slice(5)] : [];
    for (const term of terms) out.push({ term, guarded: guardedKeys.has(termKey(term)) });
  }
  return out;
}

/** Keys of terms the lexicon only reads next to an event or context word (Go, R, Vue, BI, PM). */
const GUARDED: ReadonlySet<string> = new Set(
  Object.values(TOPIC_TERMS)
    .flatMap((groups) => termsOf(groups))
    .filter((t) => t.startsWith('~'))
    .map(termKey),
);

const UMLAUTS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' };

/** The pattern of one term in folded text: its words with any joiner between, as a whole word, plurals included. */
function termSource(term: string): string[] {
  const spellings = /[äöüÄÖÜ]/.test(term) ? [term, term.replace(/[äöüÄÖÜ]/g, (c) => UMLAUTS[c]!)] : [term];
  return spellings.map((spelling) =>
    foldText(spelling)
      .trim()
      .split(/[\s\-_/]+/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\-_/]*'),
  );
}

const wrap = (alternatives: string[]) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?:s|es|e|en|n|er)?(?![\\p{L}\\p{N}])`, 'u');

/**
 * Finds a set of technologies in folded free text (an event's description): one pattern for all their terms, and
 * one per term to say which was found. Terms the lexicon reads only in context (Go, R, Vue) are left out.
 */
export function technologyFinder(
  ids: Iterable<string>,
): { any: RegExp; each: [term: string, pattern: RegExp][] } | undefined {
  const each: [string, RegExp][] = [];
  for (const { term, guarded } of technologyTerms(ids)) if (!guarded) each.push([term, wrap(termSource(term))]);
  if (each.length === 0) return undefined;
  return { any: wrap(each.flatMap(([term]) => termSource(term))), each };
}
