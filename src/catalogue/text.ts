/**
 * The one text policy of everything that enters the catalogue (docs/api.md, Text). Code points no output may carry
 * (HTML forbids them in its input stream, XML 1.0 and iCalendar TEXT in their content) are refused in what a host
 * writes, who can fix its data, and removed from what an importer reads, which cannot. Tab and line breaks stay.
 */

/** C0 controls other than tab, LF and CR; DEL and the C1 controls; the 66 noncharacters (U+FDD0…, U+FFFE, U+FFFF…). */
const FORBIDDEN = /(?![\t\n\r])\p{Cc}|\p{Noncharacter_Code_Point}/u;
const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, 'gu');

/** Forbidden code points that act as line or page breaks: removed, they would join two words into one. */
const BREAKING = /[\v\f\u0085]/g;

/** What shows nothing: white space, format characters (zero-width space and joiners, U+2060, U+FEFF, bidi marks…), fillers. */
const INVISIBLE = /^[\s\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]*$/u;

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why a host's text is refused, or undefined when it is fine (NUL and lone surrogates included). */
export function textProblem(text: string): string | undefined {
  if (!text.isWellFormed()) return 'must be well-formed Unicode (it holds a lone surrogate)';
  const found = FORBIDDEN.exec(text);
  if (!found) return undefined;
  const at = `${codePoint(found[0])} (character ${[...text.slice(0, found.index)].length + 1})`;
  return /\p{Cc}/u.test(found[0])
    ? `must not contain the control character ${at}: of those only tab and line breaks are allowed`
    : `must not contain the noncharacter ${at}`;
}

/** Whether text shows nothing at all: empty, or only white space and invisible format characters. */
export function isBlank(text: string): boolean {
  return INVISIBLE.test(text);
}

/** Text trimmed, or null when it shows nothing (an optional field left out). */
export function visibleOrNull(text: string | undefined): string | null {
  return text === undefined || isBlank(text) ? null : text.trim();
}

/** Text with the code points no output may carry taken out: the last guard of outputs that echo a query. */
export function withoutForbidden(text: string): string {
  return text.replace(FORBIDDEN_ALL, '');
}

/** What an importer's text keeps: forbidden code points removed (a vertical tab, form feed or U+0085 becomes a space), lone surrogates as U+FFFD. */
export function cleanImported(text: string): string;
export function cleanImported(text: string | undefined): string | undefined;
export function cleanImported(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return withoutForbidden(text.toWellFormed().replace(BREAKING, ' '));
}

/** Every string of a parsed JSON value cleaned as `cleanImported` does (an imported line before its schema). */
export function cleanImportedValues(value: unknown): unknown {
  if (typeof value === 'string') return cleanImported(value);
  if (Array.isArray(value)) return value.map(cleanImportedValues);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [cleanImported(k), cleanImportedValues(v)]));
  }
  return value;
}
