import type { CatalogueEvent } from '../../catalogue/event.js';
import { LANGUAGES, type Language } from '../../i18n/languages.js';
import type { MessageId } from '../../i18n/messages/index.js';
import type { Translator } from '../../i18n/translator.js';
import type { Scope } from '../../query/params.js';
import { escapeHtml, html, SafeHtml } from './template.js';

/** A message whose values may be markup (links, code): its text escaped, the markup kept. */
export function message(t: Translator, id: MessageId, values: Record<string, string | number | SafeHtml>): SafeHtml {
  const parts = t.parts<SafeHtml>(id, values);
  return new SafeHtml(parts.map((p) => (p instanceof SafeHtml ? p.value : escapeHtml(String(p)))).join(''));
}

/** "Switzerland", "Schweiz", "Suisse", "Svizzera": the country as the reader's language names it. */
export const countryName = (t: Translator, country: Scope) => t.t('country.name', { country });

/** "in Switzerland", "in der Schweiz", "en Suisse", "in Svizzera". */
export const inCountry = (t: Translator, country: Scope) => t.t('country.in', { country });

/** Each language named in itself, for the switcher: "English", "Deutsch", "Français", "Italiano". */
export const OWN_NAMES: Record<Language, string> = Object.fromEntries(
  LANGUAGES.map((lang) => {
    const name = new Intl.DisplayNames([lang], { type: 'language' }).of(lang) ?? lang;
    return [lang, name.charAt(0).toLocaleUpperCase(lang) + name.slice(1)];
  }),
) as Record<Language, string>;

/**
 * The same page in another language: its path and query, `hl` set (or dropped, for the negotiating URL). `lang` is
 * the query's event-language filter and stays as it is.
 */
export function withLanguage(path: string, query: URLSearchParams, lang: Language | undefined): string {
  const next = new URLSearchParams(query);
  next.delete('hl');
  if (lang) next.set('hl', lang);
  const qs = next.toString();
  return qs ? `${path}?${qs}` : path;
}

/** ` lang="en"` on an event's title when the event is held in another language than the page's (its title is). */
export function titleLang(event: Pick<CatalogueEvent, 'language'>, t: Translator): SafeHtml | '' {
  return event.language && event.language !== t.lang ? html` lang="${event.language}"` : '';
}
