/**
 * Finds lexicon terms (topic, seniority, format, price, audience, kind) in free text: case- and accent-insensitive,
 * on word boundaries, longest match wins, no overlaps. The tables live in lexicon-terms.ts.
 */

import {
  AUDIENCE_TERMS,
  CONTEXT_WORDS,
  EVENT_KIND_TERMS,
  FORMAT_TERMS,
  PRICE_TERMS,
  SENIORITY_TERMS,
  TOPIC_NAMES,
  TOPIC_TERMS,
} from './lexicon-terms.js';
import { foldMapped, foldText, joinable, scan, type Tok } from './lexicon-text.js';
import type { TopicSlug } from './taxonomy.js';

export {
  AUDIENCE_TERMS,
  CONFS_TECH_TOPIC_MAP,
  EVENT_KIND_TERMS,
  FORMAT_TERMS,
  PRICE_TERMS,
  SENIORITY_TERMS,
  TOPIC_TERMS,
} from './lexicon-terms.js';
export { foldText, type Token, tokenize } from './lexicon-text.js';

export type LexiconKind = 'topic' | 'seniority' | 'format' | 'price' | 'audience' | 'eventKind';

/**
 * One matched term: `start`/`length` index the original text, `term` is the canonical spelling. A term of several
 * meanings ("webinar": kind + format) yields one hit per meaning on the same span.
 */
export interface LexiconHit {
  kind: LexiconKind;
  value: string;
  term: string;
  start: number;
  length: number;
}

// ---------------------------------------------------------------- compiling the term tables

interface Meaning {
  kind: LexiconKind;
  value: string;
}
interface Cand {
  keys: string[];
  term: string;
  meanings: Meaning[];
  guarded: boolean;
  /** `^` terms don't match as the tail of a hyphenated word ("gluten-free" is not a price). */
  notTail: boolean;
  /** For dotted acronyms (A.I.): the folded surface, without spaces, must equal this. */
  exact: string | undefined;
}

const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  'a an and as at d da dal de der des di die du en et for in l la le no of on sur the to und vor with'.split(' '),
);
const DOTTED_ACRONYM = /^(?:\p{L}\.)+\p{L}?\.?$/u;

function inflections(k: string): string[] {
  if (!/^[a-z0-9]*[a-z]$/.test(k) || k.length < 3) return [];
  if (k.length === 3) return [`${k}s`];
  const out = [`${k}s`, `${k}es`, `${k}en`, `${k}n`, `${k}e`, `${k}er`, `${k}innen`];
  if (k.endsWith('y')) out.push(`${k.slice(0, -1)}ies`);
  return out;
}

const splitTerms = (groups: readonly string[]): string[] =>
  groups.flatMap((g) => g.split(',').map((t) => t.trim())).filter((t) => t.length > 0);

const keysOf = (term: string): string[] => scan(foldText(term)).map((t) => t.key);

function compile(): Map<string, Cand[]> {
  const base = new Map<string, Cand>();
  const derived = new Map<string, Cand>();
  const put = (map: Map<string, Cand>, keys: string[], term: string, m: Meaning, flags: string, exact?: string) => {
    const id = keys.join(' ');
    const c = map.get(id) ?? { keys, term, meanings: [], guarded: flags === '~', notTail: flags === '^', exact };
    map.set(id, c);
    if (!c.meanings.some((x) => x.kind === m.kind && x.value === m.value)) c.meanings.push(m);
  };
  const add = (raw: string, m: Meaning) => {
    const flags = /^[~^]/.test(raw) ? raw[0]! : '';
    const guarded = flags === '~';
    const term = raw.slice(flags.length);
    const spellings = [term];
    if (/[äöüÄÖÜ]/.test(term)) {
      const umlauts: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' };
      spellings.push(term.replace(/[äöüÄÖÜ]/g, (ch) => umlauts[ch]!));
    }
    for (const spelling of spellings) {
      const keys = keysOf(spelling);
      if (keys.length === 0) continue;
      if (DOTTED_ACRONYM.test(spelling)) {
        put(base, keys, term, m, '', foldText(spelling).replace(/\.$/, ''));
        continue;
      }
      put(base, keys, term, m, flags);
      if (guarded) continue;
      const variants = [keys];
      if (keys.length > 1 && !keys.some((k) => FUNCTION_WORDS.has(k))) variants.push([keys.join('')]);
      for (const v of variants) {
        if (v !== keys) put(derived, v, term, m, flags);
        for (const form of inflections(v[v.length - 1]!)) put(derived, [...v.slice(0, -1), form], term, m, flags);
      }
    }
  };
  for (const [value, groups] of Object.entries(TOPIC_TERMS))
    for (const t of splitTerms(groups)) add(t, { kind: 'topic', value });
  const tables: [LexiconKind, Record<string, readonly string[]>][] = [
    ['eventKind', EVENT_KIND_TERMS],
    ['audience', AUDIENCE_TERMS],
    ['seniority', SENIORITY_TERMS],
    ['format', FORMAT_TERMS],
    ['price', PRICE_TERMS],
  ];
  for (const [kind, table] of tables) {
    for (const [value, groups] of Object.entries(table)) for (const t of splitTerms(groups)) add(t, { kind, value });
  }
  const index = new Map<string, Cand[]>();
  const all = [...base.values(), ...[...derived].filter(([id]) => !base.has(id)).map(([, c]) => c)];
  for (const c of all) {
    const list = index.get(c.keys[0]!) ?? [];
    list.push(c);
    index.set(c.keys[0]!, list);
  }
  for (const list of index.values()) list.sort((a, b) => b.keys.length - a.keys.length);
  return index;
}

const INDEX = compile();

/** Every canonical spelling a lexicon hit may carry as its `term`. */
export const LEXICON_TERMS: readonly string[] = [...new Set([...INDEX.values()].flat().map((c) => c.term))];

/** Words after which a `~` term (Go, Vue, PM, R, BI) counts: event words and a few context words. */
const CONTEXT: ReadonlySet<string> = new Set([
  ...splitTerms([CONTEXT_WORDS]).flatMap((w) => [w, ...inflections(w)]),
  ...[...INDEX.values()].flatMap((list) =>
    list.filter((c) => c.keys.length === 1 && c.meanings.some((m) => m.kind === 'eventKind')).map((c) => c.keys[0]!),
  ),
]);

/** Heads of German compounds split as <term><head>: "Sicherheitskonferenz", "Datentag", "Gründerfrühstück". */
const COMPOUND_HEADS = (
  'konferenzen konferenz kongress tagungen tagung meetups meetup workshops workshop stammtisch gipfel forum treffen ' +
  'messe summit talks talk tage tag days day camp szene community netzwerk events event abend woche week night ' +
  'labs lab conf con fest festival fruhstuck zmorge brunch lunch apero'
).split(' ');

const JS_SUFFIX: Cand = {
  keys: ['js'],
  term: 'JS',
  meanings: [{ kind: 'topic', value: 'web' }],
  guarded: false,
  notTail: false,
  exact: undefined,
};

// ---------------------------------------------------------------- matching

function lookup(key: string): Cand[] | undefined {
  const list = INDEX.get(key);
  if (list || !(key.endsWith('++') || key.endsWith('#'))) return list;
  return INDEX.get(key.replace(/(\+\+|#)$/, ''));
}

function singleCand(key: string): Cand | undefined {
  return INDEX.get(key)?.find((c) => c.keys.length === 1 && c.exact === undefined);
}

/** `splitCompound` per word: titles repeat the same few thousand words (null: not a compound). */
const compounds = new Map<string, { prefix: Cand; head: Cand | undefined } | null>();

function splitCompound(key: string): { prefix: Cand; head: Cand | undefined } | undefined {
  if (key.length < 5) return undefined;
  if (key.length > 40) return findCompound(key);
  let split = compounds.get(key);
  if (split === undefined) {
    split = findCompound(key) ?? null;
    if (compounds.size >= 50_000) compounds.clear();
    compounds.set(key, split);
  }
  return split ?? undefined;
}

function findCompound(key: string): { prefix: Cand; head: Cand | undefined } | undefined {
  for (const head of COMPOUND_HEADS) {
    if (!key.endsWith(head) || key.length - head.length < 2) continue;
    const stem = key.slice(0, -head.length);
    const prefix =
      singleCand(stem) ?? (stem.endsWith('s') && stem.length > 3 ? singleCand(stem.slice(0, -1)) : undefined);
    if (prefix) return { prefix, head: singleCand(head) };
  }
  return undefined;
}

const CONJUNCTIONS: ReadonlySet<string> = new Set(['and', 'und', 'et', 'e', 'or', 'oder', 'ou', 'o']);

/**
 * A `~` term (Go, R, PM) counts before a context word ("Go meetup"), next to a term of the same meaning ("Rust, Go"),
 * or as the whole text; never right after a number ("7 PM").
 */
function inContext(c: Cand, toks: Tok[], i: number, len: number): boolean {
  const prev = toks[i - 1];
  const next = toks[i + len];
  if (!prev && !next) return true;
  if (prev && /^\d+$/.test(prev.key)) return false;
  if (next && joinable(next.gap) && CONTEXT.has(next.key)) return true;
  const near = [prev, next];
  if (prev && CONJUNCTIONS.has(prev.key)) near.push(toks[i - 2]);
  if (next && CONJUNCTIONS.has(next.key)) near.push(toks[i + len + 1]);
  const same = (o: Cand) =>
    o !== c && !o.guarded && o.keys.length === 1 && o.meanings.some((m) => c.meanings.some((x) => x.value === m.value));
  return near.some((t) => t !== undefined && (INDEX.get(t.key)?.some(same) ?? false));
}

/** All lexicon terms in `text`, left to right; see {@link LexiconHit}. */
export function matchLexicon(text: string): LexiconHit[] {
  const folded = foldMapped(text);
  const f = folded.text;
  const toks = scan(f);
  const hits: LexiconHit[] = [];
  const emit = (c: Cand, first: Tok, last: Tok) => {
    const start = folded.from[first.fs]!;
    const length = folded.to[last.fe - 1]! - start;
    for (const m of c.meanings) hits.push({ kind: m.kind, value: m.value, term: c.term, start, length });
  };
  for (let i = 0; i < toks.length; ) {
    const t = toks[i]!;
    let n = 0;
    for (const c of lookup(t.key) ?? []) {
      const len = c.keys.length;
      if (i + len > toks.length) continue;
      let ok = true;
      for (let k = 1; k < len && ok; k++) ok = toks[i + k]!.key === c.keys[k] && joinable(toks[i + k]!.gap);
      if (!ok) continue;
      const last = toks[i + len - 1]!;
      if (c.exact !== undefined && f.slice(t.fs, last.fe).replace(/\s+/g, '') !== c.exact) continue;
      if (c.guarded && !inContext(c, toks, i, len)) continue;
      if (c.notTail && i > 0 && /^[-\u2010-\u2014]$/.test(t.gap)) continue;
      emit(c, t, last);
      n = len;
      break;
    }
    if (n === 0) {
      const compound = splitCompound(t.key);
      if (compound) {
        emit(compound.prefix, t, t);
        if (compound.head) emit(compound.head, t, t);
        n = 1;
      } else if (t.key.length >= 4 && t.key.endsWith('js')) {
        emit(JS_SUFFIX, t, t); // "ZurichJS", "enterJS"
        n = 1;
      }
    }
    if (n === 0) {
      i++;
      continue;
    }
    // Gender forms "Gründer*innen", "Student:innen": absorb the "innen" into the hit.
    const after = toks[i + n];
    if (after?.key === 'innen' && /^[*:_/·]?$/.test(after.gap)) {
      const end = folded.to[after.fe - 1]!;
      for (let h = hits.length - 1; h >= 0 && hits[h]!.start === hits[hits.length - 1]!.start; h--) {
        hits[h]!.length = end - hits[h]!.start;
      }
      n++;
    }
    i += n;
  }
  return hits;
}

/** Whether a folded word is a one-word term of the lexicon ("javascript", "symfonylive"), of any kind. */
export function isLexiconWord(word: string): boolean {
  return INDEX.get(word)?.some((c) => c.keys.length === 1) ?? false;
}

// ---------------------------------------------------------------- names of the fields themselves

const namesKey = (term: string) => keysOf(term).join(' ');

/** A term's folded words without its `~`/`^` marker ("~Go" → "go"): how terms are compared. */
export const termKey = (term: string): string => namesKey(term.replace(/^[~^]/, ''));

/** The terms of comma-separated groups, as the tables of lexicon-terms.ts write them. */
export const termsOf = (groups: readonly string[] | string): string[] =>
  splitTerms(typeof groups === 'string' ? [groups] : groups);

/** Whether `term` ("KI", "sécurité informatique", "Startups") names `slug`'s field itself (see TOPIC_NAMES). */
export function isTopicName(slug: TopicSlug, term: string): boolean {
  const names = TOPIC_NAME_KEYS.get(slug);
  if (!names) return false;
  const key = namesKey(term);
  return names.has(key) || names.has(key.replace(/ /g, ''));
}

/** The keys of each field's own names, with and without spaces, inflected (see isTopicName). */
const TOPIC_NAME_KEYS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries(TOPIC_NAMES).map(([s, names]) => [
    s,
    new Set(
      splitTerms([names]).flatMap((n) => [namesKey(n), namesKey(n).replace(/ /g, ''), ...inflections(namesKey(n))]),
    ),
  ]),
);

// ---------------------------------------------------------------- typos

/** Shorter words than this are never corrected: too many real words sit one edit away from a term. */
const FUZZY_MIN_LENGTH = 6;
/** Substitutions only from this length on ("wealth" is not "health", "docket" not "docker"). */
const FUZZY_SUBSTITUTION_MIN_LENGTH = 8;

/** Whether `a` becomes `b` by one insertion, deletion or swap of neighbours (or one substitution, when allowed). */
function oneEditApart(a: string, b: string, substitution: boolean): boolean {
  if (a === b) return false;
  if (a.length === b.length) {
    let i = 0;
    while (a[i] === b[i]) i++;
    if (a.slice(i + 2) === b.slice(i + 2) && a[i] === b[i + 1] && a[i + 1] === b[i]) return true;
    return substitution && a.slice(i + 1) === b.slice(i + 1);
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (long.length - short.length !== 1) return false;
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  return short.slice(i) === long.slice(i + 1);
}

/** The one-word topic terms a misspelt word may mean (see closestTopicTerm). */
const TOPIC_WORDS: readonly Cand[] = [...INDEX.values()]
  .flat()
  .filter(
    (c) => c.keys.length === 1 && !c.guarded && c.exact === undefined && c.meanings.some((m) => m.kind === 'topic'),
  );

/**
 * The topic a misspelt word most likely means ("Pyhton" → Python): one edit away from a one-word topic term; undefined
 * when short, when nothing is near, or when topics tie.
 */
export function closestTopicTerm(word: string): { slug: TopicSlug; term: string } | undefined {
  const w = foldText(word);
  if (w.length < FUZZY_MIN_LENGTH || !/^[\p{L}\p{N}]+$/u.test(w)) return undefined;
  const substitution = w.length >= FUZZY_SUBSTITUTION_MIN_LENGTH;
  const found = new Map<string, string>();
  for (const c of TOPIC_WORDS) {
    const key = c.keys[0]!;
    if (key.length < FUZZY_MIN_LENGTH || Math.abs(key.length - w.length) > 1 || !oneEditApart(w, key, substitution))
      continue;
    for (const m of c.meanings) if (m.kind === 'topic' && !found.has(m.value)) found.set(m.value, c.term);
  }
  if (found.size !== 1) return undefined;
  const [slug, term] = [...found][0]!;
  return { slug: slug as TopicSlug, term };
}

const PUNCT_ONLY = /^[\p{P}\p{S}]+$/u;
const ORPHAN_ELISION = /^\p{L}{1,2}['’]$/u; // the "l'" left behind by "l'IA"
const EDGE_JOINERS = /^[-–—/]+|[-–—/]+$/g;

/** `text` with the hits' spans removed and whitespace / orphaned punctuation tidied. */
export function remainderAfter(text: string, hits: readonly Pick<LexiconHit, 'start' | 'length'>[]): string {
  const spans = hits.map((h) => [h.start, h.start + h.length] as const).sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  for (const [s, e] of spans) {
    if (s > pos) out += text.slice(pos, s);
    out += ' ';
    pos = Math.max(pos, e);
  }
  out += text.slice(pos);
  return out
    .split(/\s+/)
    .map((w) => w.replace(EDGE_JOINERS, ''))
    .filter((w) => w.length > 0 && !PUNCT_ONLY.test(w) && !ORPHAN_ELISION.test(w))
    .join(' ');
}
