import Negotiator from 'negotiator';

/** The languages the pages speak; English is the fallback. Italian for the Italian-speaking part of Switzerland. */
export const LANGUAGES = ['en', 'de', 'fr', 'it'] as const;
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
 * The language of a page: `?lang=` when it names one of ours, else the best of `Accept-Language` (q-values, and
 * `de-CH` matching `de`, as `negotiator` reads it), else English. `explicit` says the URL decided, so the response
 * does not depend on the request's headers (no `Vary: Accept-Language`).
 */
export function chooseLanguage(
  lang: unknown,
  acceptLanguage: string | undefined,
): { lang: Language; explicit: boolean } {
  if (isLanguage(lang)) return { lang, explicit: true };
  return { lang: negotiateLanguage(acceptLanguage), explicit: false };
}

/** The best of our languages for an `Accept-Language` header; English when it names none of them. */
export function negotiateLanguage(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return DEFAULT_LANGUAGE;
  const best = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language([...LANGUAGES]);
  return isLanguage(best) ? best : DEFAULT_LANGUAGE;
}
