/**
 * Two things a prompt says that are not search words: the language the person would like events held in ("ideally
 * in English", "am liebsten auf Englisch", "de préférence en français", "preferibilmente in inglese") — a wish that
 * orders the answers, never narrows them — and a call for papers asked for ("Call for Papers offen", "appel à
 * conférences ouvert", "call for paper aperto", "open CFP") — the `cfp=open` filter. Each is found, and its words
 * are blanked so later passes neither search them nor read "conférences" as a kind of event. The words around a
 * wish ("ideally", "am liebsten", "gerne", "de préférence") are filler (filler.ts).
 */
import { foldText } from '../../catalogue/lexicon.js';
import { blank, words } from './words.js';

export type SpokenLanguage = 'en' | 'de' | 'fr' | 'it';

/** Words naming a language, folded, in en/de/fr/it (adjectives as used: "englischsprachige", "English-speaking"). */
const LANGUAGE_WORDS: Readonly<Record<string, SpokenLanguage>> = Object.fromEntries(
  (
    [
      ['en', 'english englisch englische englischen englischer anglais anglaise inglese englischsprachig anglophone'],
      ['de', 'german deutsch deutsche deutschen deutscher allemand tedesco deutschsprachig germanophone'],
      ['fr', 'french franzosisch franzosische franzosischen francais francaise francese francophone'],
      ['it', 'italian italienisch italienische italienischen italien italienne italiano italophone'],
    ] as const
  ).flatMap(([language, list]) =>
    list.split(' ').flatMap((w) => [
      [w, language],
      [`${w}sprachig`, language],
      [`${w}sprachige`, language],
      [`${w}sprachigen`, language],
      [`${w}-speaking`, language],
    ]),
  ),
);

const OPEN = '(?:open|opened|offen(?:e|en|er)?|ouverte?s?|apert[oaie])';
const CALL = [
  String.raw`calls?[\s-]+for[\s-]+(?:papers?|speakers?|proposals?|talks?|presentations?|contributions?)`,
  'cfps?',
  String.raw`appels?\s+(?:à|a)\s+(?:conférences?|conferences?|communications?|orateurs|oratrices|propositions?|contributions?|présentations?|presentations?|interventions?)`,
  String.raw`vortr(?:ä|ae|a)ge?\s+einreichen`,
  String.raw`invito\s+a\s+presentare`,
  String.raw`chiamata\s+(?:per|a)\s+(?:relatori|interventi|contributi)`,
].join('|');
const STILL = String.raw`(?:(?:is|are|ist|sind|est|sont|è)\s+)?(?:(?:still|noch|encore|ancora)\s+)?`;
/** A call for papers asked for, with "open" before or after it: "open CFP", "Call for Papers offen", "appel … ouvert". */
const CFP = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${OPEN}\s+)?(?:${CALL})(?:\s+${STILL}${OPEN})?(?![\p{L}\p{N}])`,
  'giu',
);

export interface Wishes {
  /** The prompt with what was read blanked (same length, so offsets hold). */
  rest: string;
  cfp: boolean;
  language: SpokenLanguage | undefined;
}

/** Finds a call for papers asked for and a language wished for, and blanks their words. */
export function readWishes(text: string): Wishes {
  let cfp = false;
  let rest = text.replace(CFP, (phrase) => {
    cfp = true;
    return ' '.repeat(phrase.length);
  });
  let language: SpokenLanguage | undefined;
  for (const w of words(rest)) {
    const named = LANGUAGE_WORDS[foldText(w.text)];
    if (!named) continue;
    language ??= named;
    rest = blank(rest, w.start, w.text.length);
  }
  return { rest, cfp, language };
}
