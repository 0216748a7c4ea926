import Negotiator from 'negotiator';
import { SPEAKING } from '../catalogue/event.js';

/** The languages the pages speak (catalogue/event.ts, SPEAKING); English is the fallback. */
export const LANGUAGES = SPEAKING;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * The locale each language formats dates and numbers in. English is British English: day-first dates and a
 * 24-hour clock, as the rest of the catalogue writes them ("Fri 4 Dec 2026 · 18:30"), not en-US.
 */
export const LOCALES: Record<Language, string> = { en: 'en-GB', de: 'de', fr: 'fr', it: 'it' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language of a page: `?hl=` when it names one of ours; else the best of `Accept-Language` (q-values, and
 * `de-CH` matching `de`, as `negotiator` reads it); else, when that header names none of ours (or is absent or only
 * `*`), the one language of the event-language filter `heldIn` (`?lang=de`: events held in German are read in
 * German, and a link that meant `lang` as the page's language keeps it for a client without a preference); else
 * English.
 * `explicit` says the URL alone decided, so the response does not depend on the request's headers (no `Vary`).
 */
export function chooseLanguage(
  hl: unknown,
  acceptLanguage: string | undefined,
  heldIn?: unknown,
): { lang: Language; explicit: boolean } {
  if (isLanguage(hl)) return { lang: hl, explicit: true };
  const lang = preferredLanguage(acceptLanguage) ?? (isLanguage(heldIn) ? heldIn : DEFAULT_LANGUAGE);
  return { lang, explicit: false };
}

/** The best of our languages for an `Accept-Language` header; English when it names none of them. */
export function negotiateLanguage(acceptLanguage: string | undefined): Language {
  return preferredLanguage(acceptLanguage) ?? DEFAULT_LANGUAGE;
}

/** The language of ours an `Accept-Language` header asks for by name; none for no header, `*` alone or none of ours. */
function preferredLanguage(acceptLanguage: string | undefined): Language | undefined {
  // `*` accepts any language: it names no preference, so it does not pick ours over the others.
  const named = (acceptLanguage ?? '')
    .split(',')
    .filter((range) => range.split(';')[0]?.trim() !== '*' && range.trim() !== '')
    .join(',');
  if (!named) return undefined;
  const best = new Negotiator({ headers: { 'accept-language': named } }).language([...LANGUAGES]);
  return isLanguage(best) ? best : undefined;
}
