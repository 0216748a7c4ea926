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
