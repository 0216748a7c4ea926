/**
 * Two checks on what the engine says, beside the ranking (issue 22):
 * - `understood` must not list conversational filler ("es", "a-t-il", "cercando", "good") as matched words;
 * - reasons must not cite evidence unrelated to the prompt ("Title mentions “PyData”" for "Postgres Tag",
 *   "Title mentions “SREDay”" for "Kubernetes Konferenz").
 *
 * The second needs to know which technologies support each other. The lexicon only knows topics (Postgres and
 * PyData are both "data"), so this file keeps its own small table of technologies: the judge's ground truth, not the
 * engine's. A cited word is judged only when it names a technology of the table; anything else is given the benefit
 * of the doubt.
 */
import { foldText, isTopicName, matchLexicon } from '../../src/catalogue/lexicon.js';
import type { TopicSlug } from '../../src/catalogue/taxonomy.js';

/** A technology: the words naming it (its name, its events and series), and the wider technologies it belongs to. */
interface Technology {
  terms: string[];
  within?: string[];
}

const TECHNOLOGIES: Record<string, Technology> = {
  jvm: { terms: ['jvm'] },
  java: {
    terms: ['java', 'jug', 'java user group', 'jcon', 'javaland', 'jax', 'w-jax', 'spring', 'spring boot', 'quarkus'],
    within: ['jvm'],
  },
  kotlin: { terms: ['kotlin', 'kotlinconf', 'kotlin multiplatform', 'ktor'], within: ['jvm', 'android'] },
  scala: { terms: ['scala', 'scala days'], within: ['jvm'] },
  python: { terms: ['python', 'pycon', 'pydata', 'pythonista', 'django', 'fastapi', 'pandas'] },
  rust: { terms: ['rust', 'rustconf', 'rustacean', 'oxidize'] },
  go: { terms: ['golang', 'gophercon', 'gopher'] },
  dotnet: { terms: ['.net', 'dotnet', 'c#', 'asp.net', 'maui', 'basta', 'xamarin', 'blazor'] },
  php: { terms: ['php', 'symfony', 'symfonylive', 'laravel', 'shopware', 'wordpress', 'typo3', 'drupal', 'joomla'] },
  elixir: { terms: ['elixir', 'phoenix'] },
  javascript: { terms: ['javascript', 'js', 'typescript', 'ecmascript', 'node.js', 'deno', 'jsconf', 'enterjs'] },
  react: { terms: ['react', 'next.js', 'react native'], within: ['javascript'] },
  angular: { terms: ['angular', 'angularjs'], within: ['javascript'] },
  vue: { terms: ['vue', 'vue.js', 'nuxt'], within: ['javascript'] },
  svelte: { terms: ['svelte', 'sveltekit'], within: ['javascript'] },
  database: {
    terms: ['database', 'datenbank', 'datenbanken', 'base de donnees', 'bases de donnees', 'sql', 'nosql'],
  },
  postgres: { terms: ['postgres', 'postgresql', 'pgconf', 'pgday'], within: ['database'] },
  mysql: { terms: ['mysql', 'mariadb'], within: ['database'] },
  mongodb: { terms: ['mongodb'], within: ['database'] },
  datascience: { terms: ['data science', 'data scientist', 'datenwissenschaft', 'pydata'] },
  devops: { terms: ['devops', 'devopsdays', 'devopscon', 'devsecops', 'platform engineering'] },
  kubernetes: {
    terms: ['kubernetes', 'k8s', 'kubecon', 'kcd', 'containerdays', 'container', 'containerconf', 'docker', 'helm'],
    within: ['devops'],
  },
  sre: { terms: ['sre', 'sreday', 'site reliability engineering'], within: ['devops'] },
  terraform: { terms: ['terraform', 'opentofu', 'infrastructure as code'], within: ['devops'] },
  android: { terms: ['android', 'droidcon', 'jetpack compose'] },
  ios: { terms: ['ios', 'swift', 'swiftui', 'swiftcon', 'cocoaheads', 'xcode'] },
  flutter: { terms: ['flutter', 'fluttercon', 'dart'], within: ['android', 'ios'] },
  bitcoin: { terms: ['bitcoin', 'bitcoin++', 'lightning network'] },
  ethereum: { terms: ['ethereum', 'solidity', 'ethberlin'] },
};

/** Folded words, keeping the characters of tech spellings (C#, C++, .NET, Node.js) and dropping a sentence's dot. */
function wordsOf(text: string): string[] {
  return foldText(text)
    .replace(/[^\p{L}\p{N}+#.]+/gu, ' ')
    .split(' ')
    .map((w) => w.replace(/\.+$/, ''))
    .filter(Boolean);
}

/** Edit distance, for words of five letters or more (the engine reads "Pyhton" as Python, and may say so). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * Whether `words` hold `seq` consecutively; `loosely`, a word also matches its inflections ("Hackathons" for
 * "hackathon") and, from five letters, its misspellings within two edits.
 */
function holds(words: readonly string[], seq: readonly string[], loosely: boolean): boolean {
  const same = (w: string, s: string) =>
    w === s ||
    (loosely && s.length >= 4 && (w.startsWith(s) || s.startsWith(w))) ||
    (loosely && s.length >= 5 && w.length >= 5 && editDistance(w, s) <= 2);
  for (let i = 0; i + seq.length <= words.length; i++) {
    if (seq.every((s, j) => same(words[i + j]!, s))) return true;
  }
  return false;
}

const TERM_WORDS = new Map(Object.entries(TECHNOLOGIES).map(([name, t]) => [name, t.terms.map(wordsOf)]));

/** The technologies `words` name (`loosely`: also inflected or misspelt, see `holds`). */
function technologiesIn(words: readonly string[], loosely = false): Set<string> {
  const out = new Set<string>();
  for (const [name, terms] of TERM_WORDS) if (terms.some((seq) => holds(words, seq, loosely))) out.add(name);
  return out;
}

function ancestors(name: string, seen = new Set<string>()): Set<string> {
  for (const parent of TECHNOLOGIES[name]?.within ?? []) {
    if (!seen.has(parent)) {
      seen.add(parent);
      ancestors(parent, seen);
    }
  }
  return seen;
}

/** The same technology, or one within the other (React is JavaScript; Angular and React are not each other). */
function akin(a: string, b: string): boolean {
  return a === b || ancestors(a).has(b) || ancestors(b).has(a);
}

/**
 * Whether `cited` (the words quoted in a reason) is evidence for `prompt`: it repeats the prompt's words, or names a
 * field in general words, or is no technology of the table; else the prompt must name the same technology (or one
 * within the other), or name a topic of the cited word by a word that is no technology of the table (a field or
 * sub-field the table cannot judge).
 */
export function citesRelatedEvidence(cited: string, prompt: string): boolean {
  const citedWords = wordsOf(cited);
  const promptWords = wordsOf(prompt);
  if (citedWords.length === 0 || holds(promptWords, citedWords, true)) return true;
  const citedTopics = new Set(
    matchLexicon(cited)
      .filter((h) => h.kind === 'topic')
      .map((h) => h.value as TopicSlug),
  );
  if ([...citedTopics].some((t) => isTopicName(t, cited))) return true;
  const citedTech = technologiesIn(citedWords);
  if (citedTech.size === 0) return true;
  const promptTopicTerms = matchLexicon(prompt).filter(
    (h) => h.kind === 'topic' && citedTopics.has(h.value as TopicSlug),
  );
  for (const hit of promptTopicTerms) {
    const surface = prompt.slice(hit.start, hit.start + hit.length);
    const promptTech = technologiesIn(wordsOf(surface));
    // A prompt word of the shared topic that is no technology of the table (a field, a sub-field): cannot judge.
    if (promptTech.size === 0) return true;
    if ([...citedTech].some((c) => [...promptTech].some((p) => akin(c, p)))) return true;
  }
  // The lexicon reads no topic from a misspelt word ("Kubernets"): the prompt's technologies, read loosely, decide.
  const promptTech = technologiesIn(promptWords, true);
  return [...citedTech].some((c) => [...promptTech].some((p) => akin(c, p)));
}

/** The words quoted in a text (“…”), as `understood` lists matched words and reasons cite evidence. */
export function quoted(text: string): string[] {
  return [...text.matchAll(/“([^”]*)”/g)].map((m) => m[1]!);
}

function foldWord(word: string): string {
  return foldText(word).replace(/’/g, "'");
}

/** The prompt's filler words that `understood` lists among the words it matched. */
export function fillerListed(understood: string, mustNotMatch: readonly string[]): string[] {
  const filler = new Set(mustNotMatch.map(foldWord));
  return quoted(understood).filter((w) => filler.has(foldWord(w)));
}
