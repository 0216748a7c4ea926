import { remembered } from '../memo.js';
import type { IndexedEvent } from './indexed-event.js';

/** Letters and digits only, single-spaced and padded: how a query is found as a phrase in a title or organizer. */
export function plain(folded: string): string {
  return ` ${folded.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

/** Words without the years among them: a title names its event whatever the edition ("IT-Tage 2026" is "IT-Tage"). */
export const withoutYears = (words: readonly string[]) => words.filter((w) => !/^(?:19|20)\d\d$/.test(w));

/** A folded name's words in order, as `plain` splits it. */
export function wordsOf(folded: string): readonly string[] {
  const words = plain(folded).trim();
  return words === '' ? NO_WORDS : words.split(' ');
}
const NO_WORDS: readonly string[] = Object.freeze([]);

/** Organizers' words, shared by their events (a catalogue has a few thousand organizers for 100k events). */
const ORGANIZER_WORDS = new Map<string, readonly string[]>();

/**
 * The entry's title and organizer words. The title's list is made on each call rather
 * than kept on the entry, as it is asked for rarely (indexing, phrases, reasons); an organizer's list is shared.
 */
export function nameWordsOf(entry: IndexedEvent): { title: readonly string[]; organizer: readonly string[] } {
  return {
    title: wordsOf(entry.foldedTitle),
    organizer: remembered(ORGANIZER_WORDS, entry.foldedOrganizer, 20_000, wordsOf),
  };
}

/**
 * Whether `phrase` (two or more words) appears in `words` as consecutive words: what `plain(name).includes(
 * plain(phrase))` answers, without a plain copy of every name.
 */
export function hasPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  const last = words.length - phrase.length;
  outer: for (let i = 0; i <= last; i++) {
    for (let j = 0; j < phrase.length; j++) if (words[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}
