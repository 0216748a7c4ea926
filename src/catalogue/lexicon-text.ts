/**
 * Text folding and tokenising for the lexicon: accent/case folding that keeps a map back to the original offsets,
 * and a tokenizer that knows tech spellings (C++, C#, .NET, Node.js, A.I.).
 */

/** A word of the text: `text` is its folded form, `start`/`length` index the original text. */
export interface Token {
  text: string;
  start: number;
  length: number;
}

const SPECIAL_FOLDS: Record<string, string> = { æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ı: 'i', þ: 'th', ð: 'd' };
const MARKS = /\p{M}/gu;
const WORD_CHAR = /[\p{L}\p{N}]/u;
function foldOf(ch: string): string {
  const f = ch.normalize('NFKD').replace(MARKS, '').toLowerCase().replace(/ß/g, 'ss');
  return SPECIAL_FOLDS[f] ?? f;
}

/** The folds of the Latin letters beyond ASCII (U+0080–U+024F), made when the module loads: those of nearly every text. */
const LATIN_FOLDS: readonly string[] = Array.from({ length: 0x250 - 0x80 }, (_, i) =>
  foldOf(String.fromCharCode(0x80 + i)),
);

function foldChar(ch: string): string {
  const c = ch.charCodeAt(0);
  if (c < 128) return c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : ch;
  return (ch.length === 1 && c < 0x250 ? LATIN_FOLDS[c - 0x80] : undefined) ?? foldOf(ch);
}

export interface Folded {
  text: string;
  /** For each folded char: start and end (exclusive) of the original code point it came from. */
  from: number[];
  to: number[];
}

export function foldMapped(input: string): Folded {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < input.length; ) {
    const len = input.codePointAt(i)! > 0xffff ? 2 : 1;
    const f = foldChar(len === 1 ? input[i]! : input.slice(i, i + 2));
    if (f.length === 0 && to.length > 0) to[to.length - 1] = i + len; // a dropped combining mark joins its base
    for (let k = 0; k < f.length; k++) {
      from.push(i);
      to.push(i + len);
    }
    text += f;
    i += len;
  }
  return { text, from, to };
}

/** Code points `foldChar` changes: upper-case ASCII and everything beyond ASCII. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at NUL.
const FOLDED_CHARS = /[A-Z]|[^\u0000-\u007f]/gu;

/** Accent- and case-folded text: NFKD, combining marks dropped, ß→ss, æ→ae, œ→oe, ø→o, lower case. */
export function foldText(text: string): string {
  // Hot path (every indexed word, every event title): ASCII needs only lower-casing, and no offset map is kept.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at NUL.
  if (/^[\u0000-\u007f]*$/.test(text)) return text.toLowerCase();
  // One replace, not `out += …` per character: that leaves a chain of one cons string per character (32 bytes
  // each) in every folded title the read index keeps.
  return text.replace(FOLDED_CHARS, foldChar);
}

export interface Tok {
  key: string;
  fs: number; // folded start / end
  fe: number;
  gap: string; // folded text between the previous token and this one
}

function isWordChar(f: string, i: number): boolean {
  const c = f.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  return i < f.length && WORD_CHAR.test(f[i]!);
}

/** Tokens of folded text: letter/digit runs, plus "c++"/"c#" suffixes and ".net" (key "dotnet"). */
export function scan(f: string): Tok[] {
  const toks: Tok[] = [];
  let prevEnd = 0;
  for (let i = 0; i < f.length; ) {
    if (!isWordChar(f, i)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < f.length && isWordChar(f, j)) j++;
    if (f[j] === '+' && f[j + 1] === '+' && !isWordChar(f, j + 2)) j += 2;
    else if (f[j] === '#' && !isWordChar(f, j + 1)) j += 1;
    let start = i;
    let key = f.slice(i, j);
    if (i > 0 && f[i - 1] === '.' && (i === 1 || !isWordChar(f, i - 2))) {
      start = i - 1;
      key = `dot${key}`;
    }
    toks.push({ key, fs: start, fe: j, gap: f.slice(prevEnd, start) });
    prevEnd = j;
    i = j;
  }
  return toks;
}

/** Words of `text` with folded `text` and original offsets. */
export function tokenize(text: string): Token[] {
  const folded = foldMapped(text);
  return scan(folded.text).map((t) => {
    const start = folded.from[t.fs]!;
    return { text: t.key, start, length: folded.to[t.fe - 1]! - start };
  });
}

const JOINING_GAP = /^[\s\-_/\u2010-\u2014]*$/;
export const joinable = (gap: string): boolean => gap === '.' || JOINING_GAP.test(gap);
