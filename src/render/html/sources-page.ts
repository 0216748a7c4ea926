import { dateTime, isoDayLabel } from '../../i18n/dates.js';
import type { Translator } from '../../i18n/translator.js';
import { COUNTRY_INFO } from '../../places/countries.js';
import type { SourcesView, SourceView } from '../../use-cases/list-sources.js';
import { message } from './i18n.js';
import { layout } from './layout.js';
import { html, type SafeHtml } from './template.js';

/** Times of syncs are the service's, not an event's: shown on the clock the three countries share, zone named. */
const ZONE = COUNTRY_INFO.ch.timeZone;

const COLUMNS = ['source', 'kind', 'licence', 'state', 'dataAsOf', 'lastAttempt', 'upcoming', 'cancelled'] as const;
const CALENDAR_COLUMNS = ['calendar', 'city', 'state', 'lastChanged', 'upcoming'] as const;

/** "23. Nov. 2026, 15:05 MEZ" (the page is for people; the JSON keeps ISO). */
function when(iso: string | null, t: Translator): string {
  return iso ? dateTime(new Date(iso), ZONE, t) : t.t('sources.never');
}

/** The state in the reader's language; a failure's own message is the system's English, marked as such. */
function state(s: SourceView, t: Translator): SafeHtml {
  if (s.feed && !s.enabled) return html`${t.t('sources.state', { state: 'off' })}`;
  const next = s.nextTry ? html`; ${t.t('sources.nextTry', { time: when(s.nextTry, t) })}` : html``;
  // Never read (offline, or its host failing from the start): not an empty source, one still to be read.
  if (s.feed && !s.lastSuccess && !s.snapshot)
    return s.lastError
      ? html`${t.t('sources.notRead')}: <span class="error-text" lang="en">${s.lastError}</span>${next}`
      : html`${t.t('sources.notRead')}${next}`;
  if (s.lastError)
    return html`${t.t('sources.failing', { failures: s.failures })} <span class="error-text" lang="en">${s.lastError}</span>${next}`;
  if (s.lastSuccess) return html`${t.t('sources.state', { state: 'ok' })}`;
  if (s.snapshot) return html`${t.t('sources.state', { state: 'snapshot' })}`;
  return html`${t.t('sources.state', { state: s.feed ? 'pending' : 'none' })}`;
}

/** A feed's format names itself (`confs-tech`, `ical`); events pushed by hosts and one-off imports are described. */
function kind(s: SourceView, t: Translator): SafeHtml {
  if (s.feed || (s.kind !== 'host' && s.kind !== 'import')) return html`<code>${s.kind}</code>`;
  return html`${t.t('sources.kind', { kind: s.kind })}`;
}

/** How old the source's data is: a sync's time, or the date of the shipped snapshot it was loaded from. */
function dataAsOf(s: SourceView, t: Translator): SafeHtml {
  if (!s.dataAsOf) return html`${t.t('sources.never')}`;
  if (s.lastSuccess) return html`${when(s.dataAsOf, t)}`;
  return html`${t.t('sources.snapshotOf', { date: isoDayLabel(s.dataAsOf, ZONE, t) })}`;
}

function row(s: SourceView, t: Translator): SafeHtml {
  // A source's name is the `source` value of its events: an identifier, as are the paths shown.
  const name = s.about ? html`<a href="${s.about}"><code>${s.source}</code></a>` : html`<code>${s.source}</code>`;
  return html`<tr>
<td>${name}</td><td>${kind(s, t)}</td><td>${s.licence ?? '—'}</td><td>${state(s, t)}</td>
<td>${dataAsOf(s, t)}</td><td>${when(s.lastAttempt, t)}</td>
<td>${t.number(s.counts.listed)}</td><td>${t.number(s.counts.cancelled)}</td>
</tr>`;
}

/** One calendar of a feed of calendars: the group (linked to its feed), its city, its state, when it last changed. */
function calendarRow(c: NonNullable<SourceView['calendars']>[number], t: Translator): SafeHtml {
  const shown = c.state !== 'ok' && c.state !== 'not synced yet' && !c.lastSuccess ? 'unread' : c.state;
  const state =
    shown === 'ok' || shown === 'not synced yet'
      ? html`${t.t('sources.calendarState', { state: shown === 'ok' ? 'ok' : 'pending' })}`
      : html`${t.t('sources.calendarState', { state: shown })} <span class="error-text" lang="en">${c.lastError ?? ''}</span>`;
  return html`<tr>
<td><a href="${c.url}">${c.name ?? c.id}</a></td><td>${c.city ?? '—'}</td><td>${state}</td>
<td>${when(c.lastChanged, t)}</td><td>${t.number(c.counts.listed)}</td>
</tr>`;
}

/** The calendars of a feed of calendars, each with its own state: one failing keeps its events, the others update. */
function calendarsOf(s: SourceView, t: Translator): SafeHtml {
  if (!s.calendars?.length) return html``;
  const unread = s.calendars.every((c) => !c.lastSuccess) && s.nextTry;
  return html`<h2>${message(t, 'sources.calendarsHeading', { source: html`<code>${s.source}</code>`, count: s.calendars.length })}</h2>
${unread ? html`<p class="note">${t.t('sources.calendarsNotRead', { time: when(s.nextTry, t) })}</p>` : ''}
<table class="sources">
<thead><tr>${CALENDAR_COLUMNS.map((column) => html`<th scope="col">${t.t('sources.calendarColumn', { column })}</th>`)}</tr></thead>
<tbody>
${s.calendars.map((c) => calendarRow(c, t))}
</tbody>
</table>`;
}

export interface SourcesPageInput {
  t: Translator;
  baseUrl: string;
  view: SourcesView;
}

/** GET /sources: every source of the catalogue with its state, as `GET /api/sources` gives it, in four languages. */
export function renderSourcesPage({ t, baseUrl, view }: SourcesPageInput): string {
  const minutes = view.syncIntervalMinutes;
  const sync =
    minutes === 0
      ? t.t('sources.syncOff')
      : minutes % 60 === 0
        ? t.t('sources.syncHours', { hours: minutes / 60 })
        : t.t('sources.syncMinutes', { minutes });

  return layout(
    {
      title: `${t.t('sources.heading')} · ${t.t('site.name')}`,
      description: t.t('sources.description'),
      t,
      baseUrl,
      path: '/sources',
      query: new URLSearchParams(),
    },
    html`<h1>${t.t('sources.heading')}</h1>
<p>${sync} ${message(t, 'sources.json', { link: html`<a href="/api/sources"><code>/api/sources</code></a>` })}</p>
<table class="sources">
<thead><tr>${COLUMNS.map((column) => html`<th scope="col">${t.t('sources.column', { column })}</th>`)}</tr></thead>
<tbody>
${view.sources.map((s) => row(s, t))}
</tbody>
</table>
${view.sources.map((s) => calendarsOf(s, t))}`,
  );
}
