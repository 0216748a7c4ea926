import { dateTime, isoDayLabel, shortDate } from '../../i18n/dates.js';
import type { Translator } from '../../i18n/translator.js';
import { COUNTRY_INFO } from '../../places/countries.js';
import type { SourcesView, SourceView } from '../../use-cases/list-sources.js';
import { message } from './i18n.js';
import { addLink, layout } from './layout.js';
import { causeOf, summary } from './source-state.js';
import { html, type SafeHtml } from './template.js';

/** Times of syncs are the service's, not an event's: shown on the clock the three countries share, zone named. */
const ZONE = COUNTRY_INFO.ch.timeZone;

const COLUMNS = ['source', 'kind', 'licence', 'state', 'dataAsOf', 'lastAttempt', 'upcoming', 'cancelled'] as const;
const CALENDAR_COLUMNS = ['calendar', 'city', 'state', 'lastChanged', 'upcoming'] as const;

/** "23. Nov. 2026, 15:05 MEZ" (the page is for people; the JSON keeps ISO). */
function when(iso: string | null, t: Translator): string {
  return iso ? dateTime(new Date(iso), ZONE, t) : t.t('sources.never');
}

/** The state in the reader's language, its cause in words; the system's own message stays in `/api/sources`. */
function state(s: SourceView, t: Translator): SafeHtml {
  if (s.feed && !s.enabled) return html`${t.t('sources.state', { state: 'off' })}`;
  const next = s.nextTry ? html`; ${t.t('sources.nextTry', { time: when(s.nextTry, t) })}` : html``;
  // Never read (offline, or its host failing from the start): not an empty source, one still to be read.
  if (s.feed && !s.lastSuccess && !s.snapshot)
    return s.lastError
      ? html`${t.t('sources.notReadFailed')} ${causeOf(s.lastError, t)}${next}`
      : html`${t.t('sources.notRead')}${next}`;
  if (s.lastError) return html`${t.t('sources.failing', { failures: s.failures })} ${causeOf(s.lastError, t)}${next}`;
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
  const cells: Record<(typeof COLUMNS)[number], SafeHtml | string> = {
    source: name,
    kind: kind(s, t),
    licence: s.licence ?? '—',
    state: state(s, t),
    dataAsOf: dataAsOf(s, t),
    lastAttempt: when(s.lastAttempt, t),
    upcoming: t.number(s.counts.listed),
    cancelled: t.number(s.counts.cancelled),
  };
  return html`<tr>${COLUMNS.map((column) => html`<td data-label="${t.t('sources.column', { column })}"><span>${cells[column]}</span></td>`)}</tr>`;
}

/** One calendar of a feed of calendars: the group (linked to its feed), its city, its state, when it last changed. */
function calendarRow(c: Calendar, t: Translator): SafeHtml {
  const shown = calendarState(c);
  const state =
    shown === 'ok' || shown === 'pending'
      ? html`${t.t('sources.calendarState', { state: shown })}`
      : html`${t.t('sources.calendarState', { state: shown })} ${c.lastError ? causeOf(c.lastError, t, false) : ''}`;
  const proposed = c.acceptedAt
    ? html`<br><span class="muted">${t.t('sources.proposedByCommunity', { date: shortDate(new Date(c.acceptedAt), ZONE, t) })}</span>`
    : html``;
  const cells = [
    html`<a href="${c.url}">${c.name ?? c.id}</a>${proposed}`,
    html`${c.city ?? '—'}`,
    state,
    html`${when(c.lastChanged, t)}`,
  ];
  return html`<tr>${CALENDAR_COLUMNS.map((column, i) => html`<td data-label="${t.t('sources.calendarColumn', { column })}"><span>${cells[i] ?? t.number(c.counts.listed)}</span></td>`)}</tr>`;
}

type Calendar = NonNullable<SourceView['calendars']>[number];

/** A calendar never read is "not read yet", whatever its last try said; one read before keeps its own state. */
function calendarState(c: Calendar): 'ok' | 'pending' | 'gone' | 'unread' | 'failing' {
  if (c.state === 'not synced yet') return 'pending';
  if (c.state !== 'ok' && !c.lastSuccess) return 'unread';
  return c.state;
}

/**
 * The calendars of a feed of calendars, each with its own state (one failing keeps its events, the others update),
 * folded under a line that counts them by state: a feed of sixty groups is one line until it is opened.
 */
function calendarsOf(s: SourceView, t: Translator): SafeHtml {
  if (!s.calendars?.length) return html``;
  const unread = s.calendars.every((c) => !c.lastSuccess) && s.nextTry;
  const states = new Map<string, number>();
  for (const c of s.calendars) states.set(calendarState(c), (states.get(calendarState(c)) ?? 0) + 1);
  const counts = [...states].map(([state, count]) => t.t('sources.calendarCount', { state, count }));
  return html`<details class="calendars"${s.calendars.length <= OPEN_UP_TO ? html` open` : ''}>
<summary><h2>${message(t, 'sources.calendarsHeading', { source: html`<code>${s.source}</code>`, count: s.calendars.length })}</h2> <span class="muted">${counts.join(' · ')}</span></summary>
${unread ? html`<p class="note">${t.t('sources.calendarsNotRead', { time: when(s.nextTry, t) })}</p>` : ''}
<table class="sources calendars">
<thead><tr>${CALENDAR_COLUMNS.map((column) => html`<th scope="col">${t.t('sources.calendarColumn', { column })}</th>`)}</tr></thead>
<tbody>
${s.calendars.map((c) => calendarRow(c, t))}
</tbody>
</table>
</details>`;
}

/** A feed of a few calendars shows them at once; a longer one waits to be opened. */
const OPEN_UP_TO = 5;

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
      wide: true,
    },
    html`<h1>${t.t('sources.heading')}</h1>
${summary(view, t)}
<p>${sync} ${message(t, 'sources.json', { link: html`<a href="/api/sources"><code>/api/sources</code></a>` })} ${message(t, 'add.missing', { link: addLink(t) })}</p>
<table class="sources">
<thead><tr>${COLUMNS.map((column) => html`<th scope="col">${t.t('sources.column', { column })}</th>`)}</tr></thead>
<tbody>
${view.sources.map((s) => row(s, t))}
</tbody>
</table>
${view.sources.map((s) => calendarsOf(s, t))}`,
  );
}
