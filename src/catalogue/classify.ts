/** Topics and seniority of imported events from their words, when a source gives none of its own. */
import { CONFS_TECH_TOPIC_MAP, type LexiconHit, matchLexicon } from './lexicon.js';
import {
  type Audience,
  isAudience,
  isSeniority,
  isTopic,
  SENIORITIES,
  type Seniority,
  type TopicSlug,
} from './taxonomy.js';

const TITLE_WEIGHT = 3;
const HINT_WEIGHT = 2;
const DESCRIPTION_WEIGHT = 1;
/** Description mentions count at most this much per slug, so a long text can't outvote the title. */
const DESCRIPTION_CAP = 3;
/** A slug seen only in the description needs this many mentions (single passing mentions are noise). */
const DESCRIPTION_ONLY_MIN = 2;
const MAX_TOPICS = 5;
/** Descriptions are cut here before matching: the start of a text says what it is about. */
const DESCRIPTION_CHARS = 4000;

interface Tally<T extends string> {
  scores: Map<T, { title: number; hint: number; description: number; first: number }>;
  order: number;
}

function tally<T extends string>(): Tally<T> {
  return { scores: new Map(), order: 0 };
}

function bump<T extends string>(t: Tally<T>, slug: T, source: 'title' | 'hint' | 'description', weight: number) {
  let s = t.scores.get(slug);
  if (!s) {
    s = { title: 0, hint: 0, description: 0, first: t.order++ };
    t.scores.set(slug, s);
  }
  s[source] += weight;
}

function ranked<T extends string>(t: Tally<T>, descriptionOnlyMin?: number, rank?: (slug: T) => number): T[] {
  const strong = [...t.scores.values()].some((s) => s.title > 0 || s.hint > 0);
  const min = descriptionOnlyMin ?? (strong ? DESCRIPTION_ONLY_MIN : 1);
  const total = (s: { title: number; hint: number; description: number }) =>
    s.title + s.hint + Math.min(s.description, DESCRIPTION_CAP);
  return [...t.scores]
    .filter(([, s]) => s.title > 0 || s.hint > 0 || s.description >= min)
    .sort(([a, x], [b, y]) => total(y) - total(x) || (rank ? rank(a) - rank(b) : 0) || x.first - y.first)
    .map(([slug]) => slug);
}

/** Topic slugs of a hint: confs.tech names via CONFS_TECH_TOPIC_MAP, our own slugs as is, else the lexicon. */
function hintTopics(hint: string): TopicSlug[] {
  const h = hint.trim().toLowerCase();
  const mapped = CONFS_TECH_TOPIC_MAP[h];
  if (mapped) return mapped;
  if (isTopic(h)) return [h];
  return matchLexicon(hint).flatMap((x) => (x.kind === 'topic' && isTopic(x.value) ? [x.value] : []));
}

function addTopicHits(t: Tally<TopicSlug>, hits: LexiconHit[], source: 'title' | 'description', weight: number) {
  const audienceStarts = new Set(hits.filter((h) => h.kind === 'audience').map((h) => h.start));
  for (const hit of hits) {
    if (hit.kind === 'topic' && isTopic(hit.value)) bump(t, hit.value, source, weight);
    // Bridges: an event for founders/investors is a startup event; one for CTOs/executives is about leadership.
    else if (hit.kind === 'audience') bump(t, 'startups', source, weight / 2);
    else if (hit.kind === 'seniority' && hit.value === 'executive' && !audienceStarts.has(hit.start)) {
      bump(t, 'leadership', source, weight / 3);
    }
  }
}

/** Topics, most relevant first: title hits 3, source hints 2, description 1 (capped); `general` when nothing fits. */
export function classifyTopics(title: string, description?: string, hints?: readonly string[]): TopicSlug[] {
  const t = tally<TopicSlug>();
  addTopicHits(t, matchLexicon(title), 'title', TITLE_WEIGHT);
  for (const hint of hints ?? []) for (const slug of hintTopics(hint)) bump(t, slug, 'hint', HINT_WEIGHT);
  if (description)
    addTopicHits(t, matchLexicon(description.slice(0, DESCRIPTION_CHARS)), 'description', DESCRIPTION_WEIGHT);
  const slugs = ranked(t).filter((s) => s !== 'general');
  return slugs.length > 0 ? slugs.slice(0, MAX_TOPICS) : ['general'];
}

function classifyKind<T extends string>(
  kind: 'seniority' | 'audience',
  guard: (v: string) => v is T,
  descriptionOnlyMin: number,
  title: string,
  description?: string,
  rank?: (v: T) => number,
): T[] {
  const t = tally<T>();
  for (const hit of matchLexicon(title)) if (hit.kind === kind && guard(hit.value)) bump(t, hit.value, 'title', 2);
  if (description) {
    for (const hit of matchLexicon(description.slice(0, DESCRIPTION_CHARS))) {
      if (hit.kind === kind && guard(hit.value)) bump(t, hit.value, 'description', 1);
    }
  }
  return ranked(t, descriptionOnlyMin, rank);
}

/**
 * Seniority levels addressed, strongest first; a level only in the description needs two mentions there ("expert"
 * is common in passing).
 */
export function classifySeniority(title: string, description?: string): Seniority[] {
  return classifyKind('seniority', isSeniority, 2, title, description, (v) => SENIORITIES.indexOf(v));
}

/** Special audiences (founders, investors) an event addresses; one mention anywhere suffices; empty when none. */
export function classifyAudience(title: string, description?: string): Audience[] {
  return classifyKind('audience', isAudience, 1, title, description);
}
