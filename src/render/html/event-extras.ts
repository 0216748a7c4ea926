import { cfpClosesAt, isWholeDay } from '../../catalogue/cfp.js';
import type { CatalogueEvent } from '../../catalogue/event.js';
import { shortDate } from '../../i18n/dates.js';
import { languageName, type Translator } from '../../i18n/translator.js';
import { html, type SafeHtml } from './template.js';

/** What the pages show about an event beyond when and where: the language it is held in and an open call for papers. */
export interface CallForPapers {
  url: string | null;
  /** Last day to submit (inclusive), if the source says. */
  until: Date | null;
}

/** The languages the event is held in, as language codes ("de", "en"); none when not known. */
export function eventLanguages(event: CatalogueEvent): readonly string[] {
  return event.language ? [event.language] : [];
}

/** The event's call for papers while it is open (its deadline not passed). */
export function openCallForPapers(event: CatalogueEvent, now: Date): CallForPapers | undefined {
  const closes = cfpClosesAt(event);
  if (!(closes > now.getTime())) return undefined;
  // A whole-day deadline shows as its day; the moment after it (the next midnight) is when it closes.
  const until = event.cfpUntil ? new Date(isWholeDay(event.cfpUntil) ? closes - 1 : closes) : null;
  return { url: event.cfpUrl, until };
}

/** "In German and English" — the event's languages, named in the reader's. */
export function languagesText(codes: readonly string[], t: Translator): string | undefined {
  if (codes.length === 0) return undefined;
  const names = codes.map((code) => languageName(t, code));
  return t.t('language.in', { languages: new Intl.ListFormat(t.locale, { type: 'conjunction' }).format(names) });
}

/** "Call for papers open until Fri 4 Dec 2026", linked to the submission page when there is one. */
export function cfpNote(cfp: CallForPapers | undefined, zone: string, t: Translator): SafeHtml | '' {
  if (!cfp) return '';
  const text = cfp.until ? t.t('cfp.open', { date: shortDate(cfp.until, zone, t) }) : t.t('cfp.openNoDeadline');
  return cfp.url ? html`<a href="${cfp.url}" rel="noopener nofollow">${text}</a>` : html`${text}`;
}
