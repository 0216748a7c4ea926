/** The words of a prompt, as the understanding passes read them. */

export interface Word {
  /** As written, without trailing punctuation or an elided article ("l'" of "l'IA"). */
  text: string;
  lower: string;
  /** Offset in the prompt. */
  start: number;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}+#'’.-]*/gu;
const APOSTROPHE = /['’]/;

/**
 * The words of `text`. A word with an apostrophe is split at it, so elisions and contractions ("j'habite", "c'è",
 * "sull'intelligenza", "I'm", "what's") become their parts, each judged on its own.
 */
export function words(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(WORD)) {
    const whole = m[0].replace(/[.'’-]+$/, '');
    let offset = 0;
    for (const part of whole.split(APOSTROPHE)) {
      if (part) out.push({ text: part, lower: part.toLowerCase(), start: m.index + offset });
      offset += part.length + 1;
    }
  }
  return out;
}

/** Blanks a span so later passes neither see it nor shift offsets. */
export function blank(text: string, start: number, length: number): string {
  return text.slice(0, start) + ' '.repeat(length) + text.slice(start + length);
}

const CLAUSE_END = /[,.;:!?()]/;

/** Whether a clause ends between two words: punctuation between them ("I'm in Basel. What's on…"). */
export function clauseBreak(text: string, before: Word, after: Word): boolean {
  return CLAUSE_END.test(text.slice(before.start + before.text.length, after.start));
}
