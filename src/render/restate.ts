import { type Translator, translator } from '../i18n/translator.js';
import type { ConstraintName, Part, Restatement, SearchResult } from '../query/read-index.js';
import { sayPhrase } from './phrase.js';

const ENGLISH = translator('en');

/** How an answer restates its query, in English (`understood`): "AI & ML meetups in or near Zürich, next week (…)". */
export const describeQuery = (r: Restatement): string => sayRestatement(r, ENGLISH);

/** A constraint of the query as the restatement says it, for what dropping it would find ("without …"). */
export function constraintText(result: SearchResult, name: ConstraintName, t = ENGLISH): string {
  const part = result.restatement.parts.find((p) => p.say === name);
  return part ? sayPart(part, t) : name;
}

/**
 * A query's restatement (query/restate.ts) said in one language, from its messages (`restate.*`): a head naming the
 * events ("free AI & ML meetups", "Meetups zu KI & ML, kostenlos": `restate.head` orders it per language), the
 * filters after it, then the dates and what only orders, each after a comma. English is `understood`; a page says it
 * in its language.
 */
export function sayRestatement(r: Restatement, t: Translator): string {
  const head = new Map<Part['say'], string>();
  let rest = '';
  for (const part of r.parts) {
    const said = sayPart(part, t);
    if (HEAD.has(part.say)) head.set(part.say, said);
    else if (said) rest += AFTER.has(part.say) ? `, ${said}` : t.t('restate.tail', { part: said });
  }
  const about = head.get('subject') ?? '';
  const topics = head.get('topics') ?? '';
  const subject = about && topics ? t.t('restate.withTopic', { subject: about, topics }) : about || topics;
  const [price = '', format = '', formatExactly = ''] = ADJECTIVES.map((say) => head.get(say));
  const sentence =
    !r.prompted && !price && !format && !formatExactly && !subject
      ? t.t('restate.upcoming') + rest
      : tidy(
          t.t('restate.head', {
            price,
            format,
            formatExactly,
            subject: subject && t.t('restate.about', { subject }),
            kind: head.get('kind') || t.t('restate.events'),
          }),
        ) + rest;
  if (r.titled) return t.t('restate.titled', { phrase: r.titled, rest: sentence });
  return sentence.charAt(0).toLocaleUpperCase(t.locale) + sentence.slice(1);
}

/** The parts said in the head, the adjectives among them in their order. */
const ADJECTIVES = ['price', 'format', 'formatExactly'] as const;
const HEAD: ReadonlySet<Part['say']> = new Set([...ADJECTIVES, 'subject', 'topics', 'kind']);
/** The parts said after a comma: the dates, and what only orders. */
const AFTER: ReadonlySet<Part['say']> = new Set(['window', 'starts', 'home', 'wished', 'words']);

/** A head's message with its empty places dropped: no doubled spaces, no comma before nothing. */
const tidy = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/( ?,)+/g, ',')
    .replace(/^[ ,]+|[ ,]+$/g, '');

/** One part as a phrase: "AI & ML or Java", "meetups", "in or near Zürich", "next week (30 Nov – 6 Dec 2026)". */
export const sayPart = (part: Part, t: Translator): string => sayPhrase(part.phrase, t);
