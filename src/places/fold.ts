/**
 * Name folding for place lookups. Two levels:
 *
 * - `foldStrict`: lower-case, diacritics stripped, ß → ss, punctuation collapsed to single spaces.
 *   "Zürich" and "Zurich" meet here, "Zuerich" does not.
 * - `foldName`: `foldStrict` plus the German transliterations ae/oe/ue collapsed to a/o/u and
 *   "Sankt"/"Saint"/"St." unified, so "Zuerich", "Zurich" and "Zürich" share one key.
 *
 * The loose key also merges names that genuinely differ ("Neuenkirchen" and "Neunkirchen", "Aue"
 * and "Au"), so the gazetteer looks a query up under the strict key first and only falls back to
 * the loose key when nothing matches strictly.
 */

/** Letters that NFKD does not decompose into a base letter plus combining marks. */
const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

const SPECIAL_LETTER_RE = new RegExp(`[${Object.keys(SPECIAL_LETTERS).join('')}]`, 'g');

/** Saint prefixes as they appear in German ("Sankt", "St."), French ("Saint-", "St-") and English. */
const SAINT_TOKENS: Record<string, string> = { sankt: 'st', saint: 'st', sainte: 'ste', skt: 'st' };
const SAINT_RE = /\b(?:sankt|saint|sainte|skt)\b/;
const SAINT_RE_GLOBAL = new RegExp(SAINT_RE.source, 'g');

export function foldStrict(s: string): string {
  // Most names and titles are plain ASCII: no normalisation and no special letters, and the only letters and digits
  // are a-z and 0-9 once lower-cased (the gazetteer folds ~40k names, duplicate detection every event title).
  if (/^[\x20-\x7e]*$/.test(s))
    return s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  const base = s.normalize('NFKD').replace(/\p{M}/gu, '');
  return base
    .toLowerCase()
    .replace(SPECIAL_LETTER_RE, (c) => SPECIAL_LETTERS[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The matching key: see the module comment. Returns '' for input without letters or digits. */
export function foldName(s: string): string {
  return loosen(foldStrict(s));
}

/** `foldName` of a string that is already strictly folded (saves re-normalising when indexing). */
export function loosen(strict: string): string {
  const collapsed = strict.replace(/([aou])e/g, '$1');
  return SAINT_RE.test(collapsed) ? collapsed.replace(SAINT_RE_GLOBAL, (t) => SAINT_TOKENS[t] ?? t) : collapsed;
}

/** ASCII lower-case hyphenated slug: "Zürich" → "zurich", "Biel/Bienne" → "biel-bienne". */
export function slugifyName(s: string): string {
  return foldStrict(s)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
